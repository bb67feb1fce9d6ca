-- wrk script for bench/run.py: counts every non-2xx response and prints one
-- parseable line at the end:
--   BENCH requests=N duration_us=N p50_us=N p99_us=N non2xx=N connect=N read=N write=N timeout=N
-- Each wrk thread has its own Lua state, so the counts are read back from the
-- threads in done(). Headers are taken from the command line (-H).

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   non2xx = 0
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
   end
end

function done(summary, latency, requests)
   local non2xx_total = 0
   for _, thread in ipairs(threads) do
      non2xx_total = non2xx_total + (thread:get("non2xx") or 0)
   end
   local e = summary.errors
   io.write(string.format(
      "BENCH requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
      summary.requests, summary.duration,
      latency:percentile(50), latency:percentile(99),
      non2xx_total, e.connect, e.read, e.write, e.timeout))
end
