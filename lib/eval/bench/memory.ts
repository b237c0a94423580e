/** Growth of the JS heap allowed from the middle to the last third of the rounds: each round adds 2 manuals. */
const SETTLED_GROWTH_MB = 96;
/** The ceiling for the server process. */
const MAX_SERVER_RSS_MB = 700;

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
const measured = (xs: Array<number | null>) => xs.filter((x): x is number => typeof x === 'number' && x > 0);

/**
 * Memory is stable when no round ends with the server's RSS above the ceiling and its JS heap
 * levels off: the mean heap of the last third of the rounds is at most SETTLED_GROWTH_MB above
 * the middle third's. A leak of JS objects lifts every later round's heap. The trend is not judged
 * on RSS: with glibc's allocator and V8 growing its heap lazily on a machine with free memory, RSS
 * kept rising through 6 rounds even on the last landed commit (9031b09: 312 → 592 MB, +124 between
 * the thirds) while its heap stayed flat (87 → 148 MB, +9); RSS is bounded by the ceiling instead.
 * Means of thirds, not single rounds: one round swings with GC timing.
 */
export function memoryVerdict(rss: Array<number | null>, heap: Array<number | null>): { stable: boolean; reason: string } {
  const rs = measured(rss);
  const hs = measured(heap);
  if (rs.length < 6 || hs.length < 6) return { stable: true, reason: `too few rounds (${Math.min(rs.length, hs.length)}) to judge a trend` };
  const third = Math.floor(hs.length / 3);
  const middle = mean(hs.slice(third, hs.length - third));
  const last = mean(hs.slice(hs.length - third));
  const peak = Math.max(...rs);
  const reason = `heap ${hs.join(' → ')} MB; middle third ${middle} MB, last third ${last} MB (+${last - middle}, allowed +${SETTLED_GROWTH_MB}); RSS ${rs.join(' → ')} MB, highest ${peak} MB (ceiling ${MAX_SERVER_RSS_MB})`;
  return { stable: peak <= MAX_SERVER_RSS_MB && last - middle <= SETTLED_GROWTH_MB, reason };
}
