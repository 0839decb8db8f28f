-- wrk: random UUIDs for the load scripts' writes (dofile'd by them), the
-- generator seeded from /dev/urandom: every thread of every wrk draws
-- other ones (the same mutation id twice would be a retry, not a write).
function uuid()
    local hex = "0123456789ABCDEF"
    return (string.gsub("xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx", "x", function()
        local digit = math.random(1, 16)
        return string.sub(hex, digit, digit)
    end))
end

function seed_random()
    local random = io.open("/dev/urandom", "rb")
    local bytes = random:read(4)
    random:close()
    local seed = 0
    for index = 1, 4 do seed = seed * 256 + string.byte(bytes, index) end
    math.randomseed(seed)
end
