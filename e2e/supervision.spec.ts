/**
 * `npm start` supervises next-server. A kill -9 of the server used to end `npm start`
 * with nothing serving; now the supervisor (scripts/start.ts) starts it again after 1 s (its log
 * says so) and a new server answers /api/health ok, counting the restart. How fast it comes back
 * on a loaded machine is not asserted (no wall-clock bounds in tests). SIGTERM to `npm start`
 * still stops everything. A second `npm start` on the same DATA_DIR and port exits at once and
 * leaves the running one's upload in flight alone; a port another program takes while the server
 * is down ends `npm start` with a message instead of a restart loop. A second `npm start` of the
 * build the main web server made, on its own port with a scratch DATA_DIR.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { uniqueSamplePdf } from './sample-pdf';

const PORT = Number(process.env.E2E_PORT ?? 3107) + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-e2e-supervise-'));
/** How long to wait for the restarted server before failing (a wait limit, not a speed bound). */
const RECOVERY_WAIT_MS = 120_000;

interface Health {
  ok: boolean;
  pid: number;
  restarts: { server: number; worker: number; pdfWorkers: number };
}

let supervisor: ChildProcess;
let log = '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

async function health(): Promise<Health | null> {
  try {
    const res = await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(5000) });
    return res.ok ? ((await res.json()) as Health) : null;
  } catch {
    return null;
  }
}

/** Polls until `accept` takes a health report, failing after `ms` (with the supervisor's output). */
async function healthWhen(accept: (h: Health) => boolean, ms: number, what: string): Promise<Health> {
  let found: Health | undefined;
  await expect(async () => {
    if (supervisor.exitCode !== null) throw new Error(`npm start exited (${supervisor.exitCode}) before ${what}:\n${log.slice(-3000)}`);
    const h = await health();
    if (!h || !accept(h)) throw new Error(`no ${what} yet:\n${log.slice(-3000)}`);
    found = h;
  }).toPass({ timeout: ms, intervals: [200] });
  return found!;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm start` on this spec's port and DATA_DIR (the same entry point; the build is the one the main web server made). */
function npmStart(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, MC_NO_SAMPLE: '1', NEXT_TELEMETRY_DISABLED: '1', MC_REBUILD: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function superviseAnew() {
  log = '';
  supervisor = npmStart();
  for (const stream of [supervisor.stdout!, supervisor.stderr!]) stream.setEncoding('utf8').on('data', (d: string) => (log += d));
}

/** Runs a process to its exit: its code and output. */
async function untilExit(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding('utf8').on('data', (d: string) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

test.beforeAll(async () => {
  superviseAnew();
  await healthWhen(() => true, 240_000, 'first healthy server');
});

test.afterAll(async () => {
  if (supervisor.exitCode === null && supervisor.signalCode === null) {
    const exited = new Promise((r) => supervisor.once('exit', r));
    supervisor.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('kill -9 of next-server: npm start brings up a healthy server after 1 s and counts the restart', async () => {
  const first = await healthWhen((h) => h.ok, 30_000, 'healthy server');
  expect(first.restarts.server).toBe(0);
  expect(first.pid).not.toBe(supervisor.pid);

  process.kill(first.pid, 'SIGKILL');
  const second = await healthWhen((h) => h.ok && h.pid !== first.pid, RECOVERY_WAIT_MS, 'healthy server after the kill');
  expect(second.restarts.server).toBe(1);
  expect(alive(first.pid)).toBe(false);
  expect(supervisor.exitCode).toBeNull();
  expect(log).toMatch(/The server stopped \(SIGKILL\); restarting it in 1 s/);
});

test('a second npm start on the same DATA_DIR and port exits at once and leaves the running upload alone', async () => {
  const running = await healthWhen((h) => h.ok, 30_000, 'healthy server');
  const page = await fetch(`${BASE}/signin`, { redirect: 'manual' });
  await page.arrayBuffer();
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  // An upload in flight: half its bytes sent, the rest held back until the second start is over.
  const pdf = await uniqueSamplePdf('supervision');
  const bytes = fs.readFileSync(pdf.path);
  let sendRest!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.length >> 1));
      sendRest = () => {
        controller.enqueue(bytes.subarray(bytes.length >> 1));
        controller.close();
      };
    },
  });
  const uploading = fetch(`${BASE}/api/manuals`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/pdf', 'x-file-name': pdf.fileName, 'content-length': String(bytes.length) },
    body,
    duplex: 'half',
  } as RequestInit);
  const uploads = path.join(dataDir, 'uploads');
  await expect.poll(() => (fs.existsSync(uploads) ? fs.readdirSync(uploads).filter((n) => n.endsWith('.part')) : []).length, { timeout: 30_000 }).toBe(1);

  const second = await untilExit(npmStart());
  expect(second.code).toBe(1);
  expect(second.output).toContain(`Manual Copilot is already running on this DATA_DIR (${dataDir}): npm start, pid ${supervisor.pid}, port ${PORT}.`);
  expect(second.output).not.toMatch(/Removed|building|Serving on|restarting/i);

  sendRest();
  const res = await uploading;
  expect(res.status, await res.clone().text()).toBe(201);
  const after = await healthWhen((h) => h.ok, 30_000, 'healthy server');
  expect(after.pid).toBe(running.pid);
});

test('SIGTERM to npm start still stops the server and itself', async () => {
  const { pid } = await healthWhen((h) => h.ok, 30_000, 'healthy server');
  const exited = new Promise<number | null>((r) => supervisor.once('exit', (code) => r(code)));
  supervisor.kill('SIGTERM');
  expect(await exited).toBe(0);
  // The server was the supervisor's child and ends with it; nothing answers on the port any more.
  await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  expect(await health()).toBeNull();
  // A shutdown it asked for is not restarted: the only restart logged is the one after the kill.
  expect(log.match(/restarting it in/g)).toHaveLength(1);
});

test('a port another program takes while the server is down ends npm start with a message, not a restart loop', async () => {
  superviseAnew();
  const { pid } = await healthWhen((h) => h.ok, 240_000, 'healthy server');
  const squatter = net.createServer();
  process.kill(pid, 'SIGKILL');
  // The port frees as the server dies; take it before the supervisor's restart (1 s later).
  await expect(
    () =>
      new Promise<void>((resolve, reject) => {
        squatter.once('error', reject);
        squatter.listen(PORT, '127.0.0.1', () => resolve());
      }),
  ).toPass({ timeout: 900, intervals: [10] });
  try {
    const code = await new Promise<number | null>((resolve) => supervisor.once('exit', resolve));
    expect(code).toBe(1);
    expect(log).toContain(`The server could not listen: Port ${PORT} on 127.0.0.1 is already in use by another program.`);
    expect(log.match(/restarting it in/g)).toHaveLength(1);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
  // Its lock went with it: the next npm start on this DATA_DIR is not refused.
  expect(fs.existsSync(path.join(dataDir, 'instance.lock'))).toBe(false);
});
