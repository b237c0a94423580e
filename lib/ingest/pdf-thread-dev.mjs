// Starts pdf-thread-entry.ts in a worker thread when the sources run unbundled (dev, tests, tsx
// scripts): a thread does not inherit the parent's TypeScript loader, and tsx's loader in a thread
// costs ~250 MB of memory and ~1.5 s of CPU more than the bundle production runs
// (docs/benchmarks.md). So the entry is bundled here as production bundles it, beside the sources
// (its packages resolve from there), imported, and the file removed; a thread stopped while it
// imported leaves its file behind, removed by the next start once its process is gone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, workerData } from 'node:worker_threads';
import { build, stop } from 'esbuild';
import { workerBundleOptions } from './worker-bundle.mjs';

const entry = fileURLToPath(workerData.entry);
const dir = path.dirname(entry);
const outfile = path.join(dir, `.pdf-thread-${process.pid}-${threadId}.mjs`);

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
for (const name of fs.readdirSync(dir)) {
  const pid = /^\.pdf-thread-(\d+)-\d+\.mjs$/.exec(name)?.[1];
  if (pid && !alive(Number(pid))) fs.rmSync(path.join(dir, name), { force: true });
}

try {
  await build({ ...workerBundleOptions(path.resolve(path.dirname(entry), '..', '..')), entryPoints: [entry], outfile });
  await stop();
  await import(pathToFileURL(outfile).href);
} finally {
  fs.rmSync(outfile, { force: true });
}
