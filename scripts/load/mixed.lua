-- wrk: 80% snapshot pages, 20% player creations (one write in five).
local count = 0
request = function()
    count = count + 1
    if count % 5 == 0 then
        return wrk.format("POST", "/v1/players", { ["Content-Type"] = "application/json" },
            '{"name":"Load","score":' .. count .. '}')
    end
    return wrk.format("GET", "/v1/players?limit=100")
end
