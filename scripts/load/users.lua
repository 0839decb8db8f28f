-- wrk, under signed identities: each request made as one of the users of
-- USERS_FILE (lines "TOKEN NOTEBOOK CURSOR", scripts/load/seed-users.py).
-- USERS_MODE:
--   snapshot     a page of a random user's snapshot (GET /v1/sync/rows?limit=100)
--   delta        the first user's delta after its cursor (50 notes), as
--                the single-token delta asks one delta of every connection
--   deltas       a random user's delta after its own cursor
--   mixed        80% snapshot pages, 20% pushes of a note to the user's notebook
local users = {}
local mode = os.getenv("USERS_MODE")
local count = 0

local function uuid()
    local hex = "0123456789ABCDEF"
    return (string.gsub("xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx", "x", function()
        local digit = math.random(1, 16)
        return string.sub(hex, digit, digit)
    end))
end

init = function()
    for line in io.lines(os.getenv("USERS_FILE")) do
        local token, notebook, cursor = string.match(line, "(%S+) (%S+) (%S+)")
        users[#users + 1] = { token = token, notebook = notebook, cursor = cursor }
    end
    -- Seeded from /dev/urandom: every thread draws other UUIDs.
    local random = io.open("/dev/urandom", "rb")
    local bytes = random:read(4)
    random:close()
    local seed = 0
    for index = 1, 4 do seed = seed * 256 + string.byte(bytes, index) end
    math.randomseed(seed)
end

request = function()
    count = count + 1
    local user = users[math.random(1, #users)]
    if mode == "delta" then user = users[1] end
    local headers = { ["Authorization"] = "Bearer " .. user.token }
    if mode == "delta" or mode == "deltas" then
        return wrk.format("GET", "/v1/sync/rows?since=" .. user.cursor, headers)
    end
    if mode == "mixed" and count % 5 == 0 then
        headers["Content-Type"] = "application/json"
        local body = '{"protocolVersion":1,"changes":[{"mutationID":"' .. uuid() .. '","table":"note","id":"' .. uuid()
            .. '","operation":"upsert","values":{"notebook":"' .. user.notebook .. '","title":"Load ' .. count .. '","body":null}}]}'
        return wrk.format("POST", "/v1/sync/changes", headers, body)
    end
    return wrk.format("GET", "/v1/sync/rows?limit=100", headers)
end
