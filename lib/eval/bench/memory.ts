/** Growth allowed over the second half of the rounds: caches fill early, a leak keeps climbing. */
const SETTLED_GROWTH_MB = 96;
/** The ceiling for the server process. */
const MAX_SERVER_RSS_MB = 700;

/**
 * Memory is stable when the server stays under the ceiling and its RSS levels off: over the second
 * half of the rounds it grows by at most SETTLED_GROWTH_MB or half of what it grew in the first
 * half (each round also adds 2 manuals, so some growth is data, not a leak).
 */
export function memoryVerdict(rss: Array<number | null>): { stable: boolean; reason: string } {
  const xs = rss.filter((x): x is number => typeof x === 'number' && x > 0);
  if (xs.length < 4) return { stable: true, reason: `too few rounds (${xs.length}) to judge a trend` };
  const mid = Math.floor((xs.length - 1) / 2);
  const first = xs[mid] - xs[0];
  const second = xs[xs.length - 1] - xs[mid];
  const peak = Math.max(...xs);
  const allowed = Math.max(SETTLED_GROWTH_MB, first / 2);
  const reason = `RSS ${xs.join(' → ')} MB; first half +${first} MB, second half +${second} MB (allowed +${Math.round(allowed)}), peak ${peak} MB (ceiling ${MAX_SERVER_RSS_MB})`;
  return { stable: peak <= MAX_SERVER_RSS_MB && second <= allowed, reason };
}
