-- wrk script of bench/publish.py: seed 000 publishes, every event distinct (the publisher derives an
-- event's id from its content, so repeated bodies would be stored once).
-- Arguments (after `--`): events per call (1: POST /api/v1beta/events, else /events/batch), a run tag.
-- Prints one line, `PUBLISH ok=<calls> failed=<calls> p50=<ms> p99=<ms>`: a call is ok when it answered
-- 200 with no `"success":false` in it.

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  batch = tonumber(args[1] or "1")
  tag = args[2] or "run"
  n, ok, failed = 0, 0, 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

local function event()
  n = n + 1
  return string.format('{"event_type":"bench.published","message":{"n":%d,"run":"%s-%d"},' ..
    '"occurred_at":"2024-10-16T14:30:00Z","resource":{"resource_id":"/bench/%d"}}', n, tag, id, n % 64)
end

function request()
  if batch == 1 then
    return wrk.format(nil, "/api/v1beta/events", nil, '{"event":' .. event() .. '}')
  end
  local events = {}
  for k = 1, batch do events[k] = event() end
  return wrk.format(nil, "/api/v1beta/events/batch", nil, '{"events":[' .. table.concat(events, ",") .. ']}')
end

function response(status, headers, body)
  if status == 200 and not string.find(body, '"success":false', 1, true) then
    ok = ok + 1
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local good, bad = 0, 0
  for _, thread in ipairs(threads) do
    good = good + thread:get("ok")
    bad = bad + thread:get("failed")
  end
  io.write(string.format("PUBLISH ok=%d failed=%d p50=%.3f p99=%.3f\n", good, bad,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
