-- wrk: 80% pages of the players' snapshot, 20% player creations (one
-- write in five), through the sync engine's endpoints.
local count = 0
request = function()
    count = count + 1
    if count % 5 == 0 then
        return wrk.format("POST", "/v1/rows/player", { ["Content-Type"] = "application/json" },
            '{"values":{"name":"Load","score":' .. count .. '}}')
    end
    return wrk.format("GET", "/v1/sync/rows?tables=player&limit=100")
end
