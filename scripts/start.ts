/**
 * `npm start`: everything a fresh clone needs to serve the app on the embedded default.
 * 1. Validates the configuration and DATA_DIR (clear message + non-zero exit when wrong).
 * 2. Builds the app when there is no build or the sources changed since the last one.
 * 3. Serves it with `next start` on PORT (default 3000). The server itself applies migrations,
 *    resumes unfinished ingestion and ingests the generated sample manual on first run
 *    (instrumentation.ts), so `npm run serve` behaves the same.
 * 4. Supervises it: a server that dies (a crash, the OOM killer, kill -9) is started again after a
 *    backoff (1 s doubling to 30 s; back to 1 s once it has run for a minute), and told how often
 *    in MC_SERVER_RESTARTS (/api/health shows it). SIGINT/SIGTERM stop the server and this process.
 * Only one `npm start` serves a DATA_DIR (lib/runtime/instance-lock.ts), and a port another program
 * holds stops it with a message rather than a restart loop.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freeBytes, formatMb, minFreeBytes } from '../lib/runtime/disk-space';
import { LEAN_MALLOC_ENV } from '../lib/runtime/process-memory';
import { isLoopbackHost } from '../lib/config/network';
import { acquireInstanceLock } from '../lib/runtime/instance-lock';
import { ConfigError, runtimeEnv, runtimeNumber } from '../lib/config';
import { loadProviderConfig } from '../lib/providers/roles';

const root = path.resolve(import.meta.dirname, '..');
const NEXT_BIN = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const stampFile = path.join(root, '.next', 'mc-source-stamp');
const SOURCE_ROOTS = [
  'app',
  'components',
  'lib',
  'tools',
  'skills',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'package.json',
  'next.config.mjs',
  'postcss.config.mjs',
  'tsconfig.json',
];

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

/** Newest modification time among the app's sources: a cheap "did anything change" check. */
function newestSourceMtime(): number {
  let newest = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== 'node_modules' && !name.startsWith('.')) walk(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const r of SOURCE_ROOTS) walk(path.join(root, r));
  return Math.floor(newest);
}

function buildIfNeeded() {
  const current = String(newestSourceMtime());
  const complete = ['BUILD_ID', 'ingest-worker.mjs', 'pdf-thread.mjs', 'pdf-worker.mjs'].every((f) => fs.existsSync(path.join(root, '.next', f)));
  const built = complete && fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') : '';
  if (built === current && !runtimeEnv('MC_REBUILD')) return;
  console.log(built ? '• Sources changed since the last build: rebuilding…' : '• First start: building the app (about a minute)…');
  const t0 = Date.now();
  const result = spawnSync(process.execPath, [NEXT_BIN, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) fail('The build failed (see above).');
  // The ingest and PDF workers run as plain JavaScript in production (see scripts/build-worker.mjs).
  const worker = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-worker.mjs')], { cwd: root, stdio: 'inherit', env: process.env });
  if (worker.status !== 0) fail('Bundling the workers failed (see above).');
  fs.writeFileSync(stampFile, current);
  console.log(`• Built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const portInUse = (host: string, port: number) => `Port ${port} on ${host} is already in use by another program. Stop it, or set PORT to a free port.`;

/** Whether the server could listen on host:port now (the port is tried and let go at once). */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function main() {
  let config;
  try {
    config = loadProviderConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) fail(`${err.message}\n\nSee .env.example for every variable.`);
    throw err;
  }
  // Before anything is created: a nearly full disk would fail later, half-way through a write.
  let minFree = 0;
  try {
    minFree = minFreeBytes();
  } catch (err) {
    fail(`${(err as Error).message}.`);
  }
  const free = freeBytes(config.dataDir);
  if (free < minFree) {
    fail(
      `Not enough free disk space for DATA_DIR: ${config.dataDir} has ${formatMb(free)} free; at least ${formatMb(minFree)} is needed (MC_MIN_FREE_MB). ` +
        'Free some space, or set DATA_DIR to a folder on a larger disk.',
    );
  }
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.accessSync(config.dataDir, fs.constants.W_OK);
    const probe = path.join(config.dataDir, `.start-probe-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
  } catch (err) {
    fail(`DATA_DIR is not writable: ${config.dataDir} (${(err as NodeJS.ErrnoException).code ?? err}). Set DATA_DIR to a writable folder.`);
  }

  // Before anything in DATA_DIR is touched: a second start must not disturb the running one.
  const lock = acquireInstanceLock(config.dataDir, config.port);
  if (!lock.ok) {
    fail(
      `Manual Copilot is already running on this DATA_DIR (${config.dataDir}): npm start, pid ${lock.holder.pid}, port ${lock.holder.port}. ` +
        'Use that one, stop it first, or set DATA_DIR to another folder.',
    );
  }
  // The data folder holds password hashes and chats: only its owner may read it.
  try {
    fs.chmodSync(config.dataDir, 0o700);
  } catch (err) {
    console.warn(`• Could not make DATA_DIR private (${(err as NodeJS.ErrnoException).code ?? err}): another account owns it`);
  }
  if (!(await portIsFree(config.host, config.port))) fail(portInUse(config.host, config.port));

  buildIfNeeded();

  console.log(`• Data: ${config.dataDir}`);
  // Loopback by default: an anonymous app on a laptop is not open to the network. Any other HOST
  // makes the app require sign-in (lib/auth/access.ts).
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`• Serving on http://${shown}:${config.port}${isLoopbackHost(config.host) ? '' : ` (listening on ${config.host}: sign-in required)`}`);
  // A bounded JS heap: V8 sizes its growth steps by the limit, so under load the server's RSS grew
  // 320 → 720–760 MB in 6 load-test rounds with the default (~4 GB) limit and 320 → 535 MB with
  // 1,024 MB, while its live heap after GC stays ~70 MB (measured: npm run load-test).
  const heapMb = runtimeNumber('MC_SERVER_HEAP_MB', 1024, { integer: true });
  supervise(portInUse(config.host, config.port), () =>
    spawn(process.execPath, [`--max-old-space-size=${heapMb}`, NEXT_BIN, 'start', '-p', String(config.port), '-H', config.host], {
      cwd: root,
      // stderr passes through here, so a port taken while the server was down is noticed.
      stdio: ['inherit', 'inherit', 'pipe'],
      // glibc hands freed native memory back (LEAN_MALLOC_ENV says why and what it saved).
      env: { ...LEAN_MALLOC_ENV, ...process.env, DATA_DIR: config.dataDir, NEXT_TELEMETRY_DISABLED: '1', MC_SERVER_RESTARTS: String(restarts) },
    }),
  );
}

/** First wait before a restart; doubles with each restart in a row, up to RESTART_MAX_MS. */
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30_000;
/** A server that ran this long counts as healthy: its next crash waits RESTART_MIN_MS again. */
const HEALTHY_AFTER_MS = 60_000;
let restarts = 0;

/**
 * Keeps one server running, so a kill -9 of next-server never leaves nothing serving. Any exit
 * but the one this process asked for is followed by a restart; the
 * server's own children (ingest and PDF workers) notice their parent is gone and exit, and the new
 * server starts its own (a job the old ingest worker held is reclaimed: see README).
 */
function supervise(portInUseMessage: string, launch: () => ChildProcess) {
  let server: ChildProcess | undefined;
  let stopping: NodeJS.Signals | undefined;
  let pending: NodeJS.Timeout | undefined;
  let inARow = 0;
  const run = () => {
    pending = undefined;
    const child = launch();
    server = child;
    const healthy = setTimeout(() => (inARow = 0), HEALTHY_AFTER_MS);
    let seen = '';
    let addressInUse = false;
    // Another program took the port: restarting cannot help until it is gone. Checked on exit and
    // on output, since the last of stderr may arrive after the exit event.
    const giveUpIfPortTaken = () => {
      if (!addressInUse || stopping || (child.exitCode === null && child.signalCode === null)) return;
      clearTimeout(pending);
      fail(`The server could not listen: ${portInUseMessage}`);
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      // The tail of the last chunk too: the code may be split between two.
      seen = seen.slice(-32) + chunk.toString('utf8');
      if (seen.includes('EADDRINUSE')) addressInUse = true;
      giveUpIfPortTaken();
    });
    child.on('error', (err) => console.error(`✖ Could not start the server: ${err.message}`));
    child.on('exit', (code, signal) => {
      clearTimeout(healthy);
      server = undefined;
      if (stopping) process.exit(code ?? 0);
      giveUpIfPortTaken();
      const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** inARow);
      inARow += 1;
      restarts += 1;
      console.error(`\n✖ The server stopped (${signal ?? `exit code ${code}`}); restarting it in ${delay / 1000} s (restart ${restarts})\n`);
      pending = setTimeout(run, delay);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = signal;
      clearTimeout(pending);
      // Between restarts there is nothing to stop; otherwise exit with the server.
      if (server) server.kill(signal);
      else process.exit(0);
    });
  }
  run();
}

void main();
