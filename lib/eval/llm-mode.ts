/**
 * How the LLM strategies get their model in the eval:
 * - offline (default): whatever the configuration gives — with no LLM configured, the agent uses
 *   the rules decider and extractive answers;
 * - `--record FILE`: the configured LLM, every call appended to FILE (MC_LLM_RECORD);
 * - `--replay FILE`: no provider at all; every call is answered from FILE (MC_LLM_REPLAY with
 *   LLM_PROVIDER=none, which makes getLLM() build a replay-only client from the recording), and
 *   the agent is forced to the LLM decider, as it was when recorded. A request that is not in the
 *   recording fails loudly (llm:replay_miss).
 *
 * Replay keys include the prompt, and the prompt names manuals by id, so replay against the same
 * DATA_DIR the recording was made with (`--data-dir`). The prompt also lists unavailable tools with
 * their reasons (visual_interpretation without a VLM), so recording writes FILE.meta.json with the
 * roles that were configured and the decider, and replay restores them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RunTurnOptions } from '../agent';
import type { AgentDeps } from '../services/agent-services';
import { getProviderConfig } from '../providers/roles';
import { getLLM, getVLM, replayOnlyLlmClient } from '../providers/llm';
import type { LlmClient } from '../providers/types';

export type LlmMode = { kind: 'offline' } | { kind: 'record'; file: string } | { kind: 'replay'; file: string };

export interface AgentSetup {
  deps: AgentDeps;
  options: RunTurnOptions;
  /** For the report: which model answered, and how. */
  describe: { mode: LlmMode['kind']; llm: string | null; vlm: string | null; decider: 'rules' | 'llm' };
}

/** Sets the environment for the mode. Call before anything reads the configuration. */
export function applyLlmMode(mode: LlmMode, env: NodeJS.ProcessEnv = process.env): void {
  // The LLM logger writes JSON lines to stdout; the eval's stdout is its report.
  env.MC_LOG_LEVEL ??= 'silent';
  if (mode.kind === 'replay') {
    env.MC_LLM_REPLAY = mode.file;
    delete env.MC_LLM_RECORD;
    env.LLM_PROVIDER = 'none';
    env.VLM_PROVIDER = 'none';
    // DECIDER=llm with no provider is a configuration error; the decider is forced per turn instead.
    if (env.DECIDER?.trim().toLowerCase() === 'llm') delete env.DECIDER;
  } else if (mode.kind === 'record') {
    env.MC_LLM_RECORD = mode.file;
    delete env.MC_LLM_REPLAY;
  }
}

/** What a recording was made with (FILE.meta.json beside the cassette). */
interface RecordingMeta {
  llm: { provider: string; modelId: string } | null;
  vlm: { provider: string; modelId: string } | null;
  decider: 'rules' | 'llm';
}

export const metaFileFor = (cassette: string) => `${cassette}.meta.json`;

function readMeta(cassette: string): RecordingMeta | null {
  try {
    return JSON.parse(fs.readFileSync(metaFileFor(cassette), 'utf8')) as RecordingMeta;
  } catch {
    return null;
  }
}

const roleOf = (c: LlmClient | null) => (c ? { provider: c.provider, modelId: c.modelId } : null);

/** A client of a role the recording had but never called: served from the cassette, never calls out. */
function replayOnly(file: string, role: 'llm' | 'vlm', meta: { provider: string; modelId: string }): LlmClient {
  return replayOnlyLlmClient(role, meta, { replay: file }, `replay-only ${role.toUpperCase()}: nothing can be called`);
}

/** The agent's deps and options for the mode (after applyLlmMode). Throws when the mode cannot work. */
export function agentSetup(mode: LlmMode): AgentSetup {
  let llm = getLLM();
  let vlm = getVLM();
  const name = (c: LlmClient | null) => (c ? `${c.provider}/${c.modelId}` : null);
  if (mode.kind === 'replay') {
    const meta = readMeta(mode.file);
    if (!llm && meta?.llm) llm = replayOnly(mode.file, 'llm', meta.llm);
    if (!vlm && meta?.vlm) vlm = replayOnly(mode.file, 'vlm', meta.vlm);
    if (!llm) throw new Error(`--replay ${mode.file}: the recording has no LLM calls (record one with --record)`);
    const decider = meta?.decider ?? 'llm';
    return {
      deps: { llm, vlm },
      options: { decider },
      describe: { mode: mode.kind, llm: `replay of ${name(llm)}`, vlm: vlm ? `replay of ${name(vlm)}` : null, decider },
    };
  }
  if (mode.kind === 'record' && !llm) {
    throw new Error('--record needs a configured LLM (OPENAI_COMPATIBLE_BASE_URL + OPENAI_COMPATIBLE_MODEL, or GOOGLE_GENERATIVE_AI_API_KEY)');
  }
  const decider = getProviderConfig().decider.provider;
  if (mode.kind === 'record') {
    const meta: RecordingMeta = { llm: roleOf(llm), vlm: roleOf(vlm), decider };
    fs.mkdirSync(path.dirname(path.resolve(mode.file)), { recursive: true });
    fs.writeFileSync(metaFileFor(mode.file), `${JSON.stringify(meta, null, 2)}\n`);
  }
  return { deps: {}, options: {}, describe: { mode: mode.kind, llm: name(llm), vlm: name(vlm), decider } };
}
