/** Growth allowed from the middle to the last third of the rounds: each round adds 2 manuals. */
const SETTLED_GROWTH_MB = 96;
/** The ceiling for the server process. */
const MAX_SERVER_RSS_MB = 700;

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * Memory is stable when no round ends above the ceiling and the server's RSS levels off: the mean
 * of the last third of the rounds is at most SETTLED_GROWTH_MB above the mean of the middle third.
 * Means of thirds, not single rounds: one round's RSS swings by ~100 MB with GC timing, while a
 * leak lifts every later round.
 */
export function memoryVerdict(rss: Array<number | null>): { stable: boolean; reason: string } {
  const xs = rss.filter((x): x is number => typeof x === 'number' && x > 0);
  if (xs.length < 6) return { stable: true, reason: `too few rounds (${xs.length}) to judge a trend` };
  const third = Math.floor(xs.length / 3);
  const middle = mean(xs.slice(third, xs.length - third));
  const last = mean(xs.slice(xs.length - third));
  const peak = Math.max(...xs);
  const reason = `RSS ${xs.join(' → ')} MB; middle third ${middle} MB, last third ${last} MB (+${last - middle}, allowed +${SETTLED_GROWTH_MB}), highest ${peak} MB (ceiling ${MAX_SERVER_RSS_MB})`;
  return { stable: peak <= MAX_SERVER_RSS_MB && last - middle <= SETTLED_GROWTH_MB, reason };
}
