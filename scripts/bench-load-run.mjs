// The measuring loop of the bench's node load generators (bench-load.mjs, bench-load-tls.mjs):
// `conns` workers each sending one request after another until `secs` have passed.

/** A load run of `secs` seconds: count answers with done(), failures with failed(), then run(). */
export function createLoad(secs) {
  const latencies = [];
  let requests = 0;
  let errors = 0;
  let non2xx = 0;
  const start = performance.now();
  const end = start + secs * 1000;
  return {
    /** An answer with `status` to a request sent at `t0` (performance.now()). */
    done(t0, status) {
      latencies.push(performance.now() - t0);
      requests++;
      if (status < 200 || status > 299) non2xx++;
    },
    failed() {
      errors++;
    },
    /** Runs `one` (a request, resolving when answered) on `conns` workers; the figures as one object. */
    async run(one, conns) {
      const worker = async () => {
        while (performance.now() < end) await one();
      };
      await Promise.all(Array.from({ length: conns }, worker));
      const durationS = (performance.now() - start) / 1000;
      latencies.sort((a, b) => a - b);
      const pct = (p) =>
        latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
      return { requests, durationS, p50Ms: pct(50), p99Ms: pct(99), errors, non2xx };
    },
  };
}

/** One request that `start` sends (given the response callback; it returns the request), counted on `load`. */
const timed = (load, start) =>
  new Promise((resolve) => {
    const t0 = performance.now();
    const req = start((res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        load.done(t0, res.statusCode);
        resolve();
      });
    });
    req.on('error', () => {
      load.failed();
      resolve();
    });
  });

/**
 * One keep-alive GET after another with node's `get` (http.get or https.get) and `options`
 * (host, port, path, agent, …), counted on `load`.
 */
export const getter = (load, get, options) => () => timed(load, (onResponse) => get(options, onResponse));

/**
 * One keep-alive request with a JSON body after another (`request` is http.request), counted on
 * `load`: the bench's POSTs to a resource.
 */
export const sender = (load, request, options, body) => () =>
  timed(load, (onResponse) => {
    const req = request(options, onResponse);
    req.end(body);
    return req;
  });
