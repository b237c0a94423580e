/**
 * The bench's view of the running app: start it (`npx tsx scripts/start.ts`: build if stale, then
 * serve) on a free loopback port with a scratch DATA_DIR, wait for /api/health and for the seeded
 * sample manual, ask questions through POST /api/chat (the AI SDK UI message stream as server-sent
 * events, lib/chat/protocol.ts) and time the stream; read the peak RSS of the server's processes; stop it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RunningServer {
  url: string;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

export function startServer(opts: { root: string; dataDir: string; port: number; logFile: string; env?: Record<string, string> }): RunningServer {
  const out = fs.openSync(opts.logFile, 'a');
  // Its own process group, so stop() ends the server and every child it started (next, the ingest worker).
  const child = spawn('npx', ['tsx', 'scripts/start.ts'], {
    cwd: opts.root,
    env: { ...process.env, ...opts.env, PORT: String(opts.port), DATA_DIR: opts.dataDir, MC_NO_SAMPLE: '0' },
    stdio: ['ignore', out, out],
    detached: true,
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${opts.port}`,
    child,
    logFile: opts.logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const group = -child.pid!;
      try {
        process.kill(group, 'SIGTERM');
      } catch {
        return;
      }
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(group, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

/** Polls `probe` until it returns a value, the child dies, or the deadline passes. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, opts: { timeoutMs: number; child?: ChildProcess; logFile?: string }): Promise<T> {
  const until = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (opts.child && (opts.child.exitCode !== null || opts.child.signalCode !== null)) {
      throw new Error(`the server exited before ${what}${opts.logFile ? `; last log lines:\n${tail(opts.logFile, 20)}` : ''}`);
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${opts.logFile ? `; last log lines:\n${tail(opts.logFile, 20)}` : ''}`);
    await sleep(500);
  }
}

export function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface TurnTiming {
  /** Submit → first agent event line. */
  firstEventMs: number | null;
  /** Submit → first answer text (response_delta or response). */
  firstTokenMs: number | null;
  /** Submit → the final `response` event. */
  answerMs: number | null;
  /** Submit → the stream's end. */
  totalMs: number;
  status: string;
  answer: string;
  events: number;
}

/** Parses the JSON of server-sent events (`data: …` lines; the closing `[DONE]` is dropped) as they arrive. */
export async function* sseJson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = function* (line: string) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : '';
    if (data && data !== '[DONE]') yield JSON.parse(data);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        yield* parse(line);
      }
    }
    yield* parse((buffer + decoder.decode()).trim());
  } finally {
    reader.releaseLock();
  }
}

type Chunk = { type: string; delta?: string; data?: { text?: string; status?: string }; messageMetadata?: { status?: string }; errorText?: string };

/**
 * The owner cookie a browser gets on its first page (the API refuses cookieless writes).
 * /signin is the lightest page.
 */
export async function ownerCookie(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/signin`, { redirect: 'manual' });
  await res.arrayBuffer();
  const value = res.headers.get('set-cookie')?.split(';')[0];
  if (!value) throw new Error(`GET /signin set no owner cookie (HTTP ${res.status})`);
  return value;
}

/** Times one question through POST /api/chat (a new session each time; the owner cookie is reused). */
export async function askOverHttp(baseUrl: string, question: string, cookie: { value?: string }): Promise<TurnTiming> {
  cookie.value ??= await ownerCookie(baseUrl);
  const t0 = performance.now();
  const since = () => Math.round((performance.now() - t0) * 10) / 10;
  const res = await fetch(`${baseUrl}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie.value ? { cookie: cookie.value } : {}) },
    body: JSON.stringify({ sessionId: randomUUID(), question, scope: 'all' }),
  });
  const setCookie = res.headers.get('set-cookie');
  if (setCookie) cookie.value = setCookie.split(';')[0];
  if (!res.ok || !res.body) throw new Error(`POST /api/chat: HTTP ${res.status} ${await res.text().catch(() => '')}`.trim());
  const timing: TurnTiming = { firstEventMs: null, firstTokenMs: null, answerMs: null, totalMs: 0, status: 'unknown', answer: '', events: 0 };
  let streamed = '';
  for await (const raw of sseJson(res.body)) {
    const chunk = raw as Chunk;
    // An agent event: a trail data part or answer text (the session part only names the turn).
    const agentEvent = (chunk.type.startsWith('data-') && chunk.type !== 'data-session') || chunk.type === 'text-delta';
    if (agentEvent) {
      timing.events++;
      timing.firstEventMs ??= since();
    }
    if (chunk.type === 'text-delta') {
      timing.firstTokenMs ??= since();
      streamed += chunk.delta ?? '';
    } else if (chunk.type === 'data-response') {
      timing.firstTokenMs ??= since();
      timing.answerMs = since();
      timing.answer = chunk.data?.text ?? streamed;
    } else if (chunk.type === 'finish') timing.status = chunk.messageMetadata?.status ?? 'done';
    else if (chunk.type === 'error') throw new Error(`chat failed: ${chunk.errorText}`);
  }
  timing.totalMs = since();
  return timing;
}

/** Peak resident set (VmHWM) of a process and all its descendants, in MB, by command. */
export function peakRssTree(rootPid: number): Array<{ pid: number; command: string; peakMb: number }> {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(path.join('/proc', name, 'stat'), 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: Array<{ pid: number; command: string; peakMb: number }> = [];
  const visit = (pid: number) => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const hwm = /VmHWM:\s+(\d+)\s+kB/.exec(status);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 4).join(' ');
      if (hwm) out.push({ pid, command: cmd, peakMb: Math.round(Number(hwm[1]) / 1024) });
    } catch {
      // gone
    }
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(rootPid);
  return out;
}
