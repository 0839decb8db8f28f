-- wrk, under signed identities: each request made as one of the users of
-- USERS_FILE (lines "TOKEN NOTEBOOK CURSOR", scripts/load/seed-users.py).
-- USERS_MODE:
--   snapshot     a page of a random user's snapshot (GET /v1/sync/rows?limit=100)
--   delta        the first user's delta after its cursor (50 notes), as
--                the single-token delta asks one delta of every connection
--   deltas       a random user's delta after its own cursor
--   mixed        80% snapshot pages, 20% pushes of a note to the user's notebook
-- Each user's read is formatted once, in init: a request costs wrk a pick.
dofile(string.match(debug.getinfo(1, "S").source, "^@(.*/)") .. "random-uuid.lua")
local users = {}
local reads = {}
local mode = os.getenv("USERS_MODE")
local count = 0

init = function()
    for line in io.lines(os.getenv("USERS_FILE")) do
        local token, notebook, cursor = string.match(line, "(%S+) (%S+) (%S+)")
        local user = { token = token, notebook = notebook }
        users[#users + 1] = user
        local headers = { ["Authorization"] = "Bearer " .. token }
        if mode == "delta" or mode == "deltas" then
            reads[#reads + 1] = wrk.format("GET", "/v1/sync/rows?since=" .. cursor, headers)
        else
            reads[#reads + 1] = wrk.format("GET", "/v1/sync/rows?limit=100", headers)
        end
    end
    seed_random()
end

request = function()
    count = count + 1
    if mode == "delta" then return reads[1] end
    local index = math.random(1, #users)
    if mode == "mixed" and count % 5 == 0 then
        local user = users[index]
        local body = '{"protocolVersion":1,"changes":[{"mutationID":"' .. uuid() .. '","table":"note","id":"' .. uuid()
            .. '","operation":"upsert","values":{"notebook":"' .. user.notebook .. '","title":"Load ' .. count .. '","body":null}}]}'
        return wrk.format("POST", "/v1/sync/changes",
                          { ["Authorization"] = "Bearer " .. user.token, ["Content-Type"] = "application/json" }, body)
    end
    return reads[index]
end
