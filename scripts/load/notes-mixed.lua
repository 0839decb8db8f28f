-- wrk: 80% pages of the engine's snapshot (Notes' notebooks and notes),
-- 20% pushes of one new note (one write in five). NOTEBOOK is the id of a
-- seeded notebook.
dofile(string.match(debug.getinfo(1, "S").source, "^@(.*/)") .. "random-uuid.lua")
local count = 0
local notebook = os.getenv("NOTEBOOK")

init = function()
    seed_random()
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
