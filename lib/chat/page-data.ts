/**
 * What every chat page needs besides the conversation: the owner's sessions, the ready manuals
 * (the only ones a question may search), the ones still processing, offline example questions
 * and whether a language model is configured.
 */
import 'server-only';
import { isSearchable, overallPercent, searchableLabel, stageLabel } from '@/lib/manuals/view';
import { queuedManualIds } from '@/lib/store/jobs';
import { getConfig } from '@/lib/config';
import { getProviderConfig } from '@/lib/providers/roles';
import { listManuals } from '@/lib/store/manuals';
import { manualHeadings } from '@/lib/store/sessions';
import { listChatSessions, type SessionSummary } from './service';
import { exampleQuestions } from './suggestions';
import { deviceName } from '@/lib/device/name';

export interface ChatPageContext {
  sessions: SessionSummary[];
  /**
   * The manuals a question may search: ready, or still processing with ready pages (`searchable`
   * says how far). `device`: the device the title names, for short labels (lib/ingest/manual-title.ts).
   */
  manuals: Array<{ id: string; title: string; device: string; searchable: string | null }>;
  processing: Array<{ title: string; stage: string; percent: number; searchable: string | null }>;
  failedCount: number;
  examples: string[];
  offline: boolean;
  /** PUBLIC_URL: where share links point (null: the address the browser used). */
  publicUrl: string | null;
}

export async function chatPageContext(ownerId: string | null, opts: { examples?: boolean } = {}): Promise<ChatPageContext> {
  const [sessions, all, queue] = await Promise.all([listChatSessions(ownerId), listManuals(), queuedManualIds()]);
  const ready = all.filter(isSearchable).map((m) => ({ id: m.id, title: m.title, device: deviceName(m.title), searchable: searchableLabel(m) }));
  const processing = all
    .filter((m) => m.status !== 'ready' && m.status !== 'failed')
    .map((m) => {
      const view = { ...m, queuePosition: queue.indexOf(m.id) + 1 || null };
      return { title: m.title, stage: stageLabel(view), percent: overallPercent(view), searchable: searchableLabel(m) };
    });
  const examples = opts.examples === false || !ready.length ? [] : exampleQuestions(ready, await manualHeadings(ready.map((m) => m.id)));
  let offline = true;
  let publicUrl: string | null = null;
  try {
    offline = getProviderConfig().llm.provider === 'none';
    publicUrl = getConfig().publicUrl ?? null;
  } catch {
    // A broken configuration is reported by /api/health; the chat just assumes no model.
  }
  return { sessions, manuals: ready, processing, failedCount: all.filter((m) => m.status === 'failed').length, examples, offline, publicUrl };
}
