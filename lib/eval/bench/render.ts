/** The bench report as text for people (scripts/bench.ts without --json). */
import { renderTable } from '../report';
import type { AvailabilityFigures } from './availability';
import { SEARCH_TOOLS, type BenchReport } from './run';

const v = (x: number | null | undefined, unit = '') => (x === null || x === undefined ? '—' : `${x}${unit}`);

export function renderBench(r: BenchReport): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(`machine: ${m.cpu}, ${m.nproc} cores, ${m.memory_gb} GB, Node ${m.node}, load average ${m.load_avg_1m_at_start} at start, ${m.load_avg_1m_at_end ?? '—'} at end`, '');
  out.push(`ingest (${r.ingest.source ?? ''}):`);
  const spread = r.ingest.ocr_engine_ratio_spread;
  const ratio = r.ingest.ocr_engine_ratio == null ? '' : `   OCR ÷ bare engine ${r.ingest.ocr_engine_ratio}${spread ? ` (median of ${spread.rounds} interleaved rounds, ${spread.min}–${spread.max})` : ''}`;
  out.push(`  text pages/s ${v(r.ingest.text_pages_per_s)}   OCR pages/s ${v(r.ingest.ocr_pages_per_s)}${ratio}`);
  const loads = r.ingest.load_avg_1m ?? {};
  if (Object.keys(loads).length) out.push(`  load average (1 min) during: ${Object.entries(loads).map(([k, l]) => `${k} ${l.start} → ${l.end}`).join(', ')}`);
  for (const round of r.ingest.ocr_ratio_rounds ?? []) out.push(`    OCR round ${round.round}: ratio ${v(round.ratio)} (from upload ${v(round.ratio_from_upload)}), load ${round.load_avg_1m.start} → ${round.load_avg_1m.end}`);
  const avail = (label: string, a: Partial<AvailabilityFigures> | undefined) =>
    a && out.push(`  ${label}: first page searchable ${v(a.time_to_first_searchable_ms, ' ms')}, text searchable ${v(a.time_to_searchable_pages_per_s)} pages/s, complete ${v(a.complete_pages_per_s)} pages/s`);
  avail('text manuals', r.ingest.text_availability);
  avail(`${r.ingest.large?.pages ?? ''}-page manual`, r.ingest.large);
  for (const f of r.ingest.files ?? []) out.push(`  ${f.role.padEnd(8)} ${f.file}: ${f.pages} pages (${f.ocrPages} OCR), ${(f.ms / 1000).toFixed(1)} s ${f.timings ? JSON.stringify(f.timings) : ''}`);
  const sizes = Object.keys(r.search[SEARCH_TOOLS[0]] ?? {});
  if (sizes.length) {
    out.push('', 'search latency, ms (p50 / p95), store call only:');
    const rows = [['tool', ...sizes.map((s) => `${Number(s).toLocaleString('en')} chunks`)]];
    for (const tool of SEARCH_TOOLS) rows.push([tool, ...sizes.map((s) => `${v(r.search[tool]?.[s]?.p50_ms)} / ${v(r.search[tool]?.[s]?.p95_ms)}`)]);
    out.push(renderTable(rows));
    if (r.corpus) out.push(...Object.entries(r.corpus).map(([s, c]) => `  @${s}: ${c.chunks} chunks, ${c.pages} pages, built in ${(c.build_ms / 1000).toFixed(1)} s + optimize ${(c.optimize_ms / 1000).toFixed(1)} s, ${c.disk_mb} MB on disk, load ${c.load_avg_1m.start} → ${c.load_avg_1m.end}`));
    if (r.embed_query_ms) out.push(`  query embedding p50: dense ${v(r.embed_query_ms.dense.p50)} ms, multi-vector ${v(r.embed_query_ms.multivector.p50)} ms`);
  }
  out.push('', `chat (${r.server?.mode ?? 'skipped'}):`);
  out.push(`  first event p50 ${v(r.first_event_ms.p50, ' ms')}, p95 ${v(r.first_event_ms.p95, ' ms')}`);
  if (r.first_token_ms) out.push(`  first answer text p50 ${v(r.first_token_ms.p50, ' ms')}, p95 ${v(r.first_token_ms.p95, ' ms')}`);
  out.push(`  answer p50 ${v(r.answer_ms.p50, ' ms')}, p95 ${v(r.answer_ms.p95, ' ms')}`);
  if (r.server?.error) out.push(`  server error: ${r.server.error}`);
  if (r.server?.rss_total_mb) out.push(`  server peak RSS (all processes) ${r.server.rss_total_mb} MB`);
  out.push('', `bench process peak RSS ${r.rss_mb} MB`);
  return out.join('\n');
}
