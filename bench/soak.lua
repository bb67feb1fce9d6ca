-- wrk script for bench/soak.py: bench/report.lua's counts, at a fixed rate.
-- Each connection waits delay_ms between its requests, so that the whole run
-- sends about connections * 1000 / delay_ms requests per second.
--   wrk ... -s soak.lua URL -- <delay_ms>

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   non2xx = 0
   delay_ms = tonumber(args[1]) or 0
end

function delay()
   return delay_ms
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
