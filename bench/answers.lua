-- wrk script for bench/answers.py: answer submissions, each one valid.
--
--   wrk ... -s answers.lua http://127.0.0.1:PORT -- DATAFILE THREADS
--
-- DATAFILE has one "token attempt_id index option_id" per line. Thread t of
-- THREADS takes lines t, t+THREADS, t+2*THREADS, ... and cycles through them:
-- the first pass over a line records a new answer, every later pass repeats
-- that accepted answer (idempotent: 200 with the same attempt). Requests are
-- built once, in init.
--
-- Prints one parseable line at the end, like report.lua, plus the 4xx/5xx split:
--   BENCH requests=N duration_us=N p50_us=N p99_us=N non2xx=N s4xx=N s5xx=N connect=N ...

local threads = {}
local started = 0

function setup(thread)
   thread:set("tid", started)
   started = started + 1
   table.insert(threads, thread)
end

function init(args)
   non2xx = 0
   s4xx = 0
   s5xx = 0
   local path, nthreads = args[1], tonumber(args[2])
   items = {}
   local n = 0
   for line in io.lines(path) do
      if n % nthreads == tid then
         local token, attempt, index, option = line:match("^(%S+) (%S+) (%S+) (%S+)$")
         table.insert(items, wrk.format(
            "PUT",
            "/quest/attempts/" .. attempt .. "/answers/" .. index,
            {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"},
            '{"choice":"' .. option .. '"}'))
      end
      n = n + 1
   end
   if #items == 0 then
      error("no requests for thread " .. tid .. " in " .. path)
   end
   cursor = 0
end

function request()
   cursor = cursor % #items + 1
   return items[cursor]
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
      if status >= 500 then
         s5xx = s5xx + 1
      elseif status >= 400 then
         s4xx = s4xx + 1
      end
   end
end

function done(summary, latency, requests)
   local totals = {non2xx = 0, s4xx = 0, s5xx = 0}
   for _, thread in ipairs(threads) do
      for key, _ in pairs(totals) do
         totals[key] = totals[key] + (thread:get(key) or 0)
      end
   end
   local e = summary.errors
   io.write(string.format(
      "BENCH requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d s4xx=%d s5xx=%d connect=%d read=%d write=%d timeout=%d\n",
      summary.requests, summary.duration,
      latency:percentile(50), latency:percentile(99),
      totals.non2xx, totals.s4xx, totals.s5xx, e.connect, e.read, e.write, e.timeout))
end
