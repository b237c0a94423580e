/**
 * Starts "several machines" on loopback: a fresh Postgres database (on TEST_DATABASE_URL's
 * server), one shared FILES_DIR, two app servers (A, B) without their own ingest worker, and two
 * workers (`npm run worker`) that name different machines (MC_WORKER_HOST), so a dead worker is
 * found by its lease running out, as across machines. Each process has its own DATA_DIR; the
 * vector index is shared the way Weaviate would be — here LanceDB in one folder every DATA_DIR
 * links to. The test reads what it needs from CLUSTER_* variables; returns the teardown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer, tail, waitFor, type RunningServer } from '../../lib/eval/bench/server';
import { sleep } from '../../lib/runtime/abort';
import { freshTestDatabase } from '../../lib/store/testing/postgres';

const root = path.resolve(import.meta.dirname, '..', '..');

export default async function globalSetup() {
  const database = await freshTestDatabase();
  if ('skip' in database) {
    process.env.CLUSTER_SKIP = database.skip;
    return async () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-cluster-'));
  const filesDir = path.join(dir, 'files');
  const lanceDir = path.join(dir, 'lancedb');
  fs.mkdirSync(filesDir);
  fs.mkdirSync(lanceDir);
  const dataDir = (name: string) => {
    const d = path.join(dir, name);
    fs.mkdirSync(d);
    fs.symlinkSync(lanceDir, path.join(d, 'lancedb'));
    return d;
  };
  const shared = {
    DATABASE_URL: database.url,
    FILES_DIR: filesDir,
    // The owner cookie must verify on every server.
    SESSION_SECRET: randomBytes(32).toString('hex'),
    MC_JOB_LEASE_MS: '6000',
    MC_LOG_LEVEL: 'info',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  const [portA, portB] = process.env.CLUSTER_PORTS ? process.env.CLUSTER_PORTS.split(',').map(Number) : [await freePort(), await freePort()];

  const servers: RunningServer[] = [];
  const workers: ChildProcess[] = [];
  const teardown = async () => {
    const running = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    const exited = Promise.all(running.map((w) => new Promise((r) => w.once('exit', r))));
    for (const w of running) w.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.stop()));
    // A worker still running 10 s after SIGTERM is killed; one that ends sooner is not waited for.
    const grace = new AbortController();
    await Promise.race([exited, sleep(10_000, grace.signal).catch(() => {})]);
    grace.abort();
    for (const w of running) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await database.drop().catch((err) => console.error('[cluster] could not drop the test database:', err));
    if (!process.env.CLUSTER_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    // A first: it builds the app when the build is stale; B then starts on the same build.
    for (const [name, port] of [
      ['a', portA],
      ['b', portB],
    ] as const) {
      const server = startServer({ root, dataDir: dataDir(name), port, logFile: path.join(dir, `server-${name}.log`), env: { ...shared, MC_NO_WORKER: '1' } });
      servers.push(server);
      await waitFor(`server ${name}`, async () => ((await fetch(`${server.url}/api/health`)).ok ? true : undefined), {
        timeoutMs: 600_000,
        child: server.child,
        logFile: server.logFile,
      });
    }
    for (const n of [1, 2]) {
      const logFile = path.join(dir, `worker-${n}.log`);
      const out = fs.openSync(logFile, 'a');
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
        cwd: root,
        env: { ...process.env, ...shared, DATA_DIR: dataDir(`w${n}`), MC_WORKER_HOST: `machine-${n}` },
        stdio: ['ignore', out, out],
      });
      fs.closeSync(out);
      workers.push(child);
      await waitFor(`worker ${n}`, async () => (/\[ingest\] worker \S+ ready/.test(tail(logFile, 50)) ? true : undefined), {
        timeoutMs: 120_000,
        child,
        logFile,
      });
    }
  } catch (err) {
    await teardown();
    throw err;
  }

  Object.assign(process.env, {
    CLUSTER_DIR: dir,
    CLUSTER_DATABASE_URL: database.url,
    CLUSTER_FILES_DIR: filesDir,
    CLUSTER_A: servers[0].url,
    CLUSTER_B: servers[1].url,
    CLUSTER_WORKERS: JSON.stringify(workers.map((w, i) => ({ host: `machine-${i + 1}`, pid: w.pid, log: path.join(dir, `worker-${i + 1}.log`) }))),
  });
  return teardown;
}
