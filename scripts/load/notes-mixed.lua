-- wrk: 80% pages of the engine's snapshot (Notes' notebooks and notes),
-- 20% pushes of one new note (one write in five). NOTEBOOK is the id of a
-- seeded notebook.
local count = 0
local notebook = os.getenv("NOTEBOOK")

local function uuid()
    local hex = "0123456789ABCDEF"
    local text = string.gsub("xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx", "x", function()
        local digit = math.random(1, 16)
        return string.sub(hex, digit, digit)
    end)
    return text
end

-- Seeded from /dev/urandom: every thread of every wrk draws other UUIDs
-- (the same mutation id twice would be a retry, not a write).
init = function()
    local random = io.open("/dev/urandom", "rb")
    local bytes = random:read(4)
    random:close()
    local seed = 0
    for index = 1, 4 do seed = seed * 256 + string.byte(bytes, index) end
    math.randomseed(seed)
end

request = function()
    count = count + 1
    if count % 5 == 0 then
        local body = '{"protocolVersion":1,"changes":[{"mutationID":"' .. uuid() .. '","table":"note","id":"' .. uuid()
            .. '","operation":"upsert","values":{"notebook":"' .. notebook .. '","title":"Load ' .. count .. '","body":null}}]}'
        return wrk.format("POST", "/v1/sync/changes", { ["Content-Type"] = "application/json" }, body)
    end
    return wrk.format("GET", "/v1/sync/rows?limit=100")
end
