// Starts pdf-thread-entry.ts in a worker thread when the sources run unbundled (dev, tests, tsx
// scripts): a thread does not inherit the parent's TypeScript loader. Production runs the bundle.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

register('tsx/esm', { parentURL: import.meta.url, data: true });
await import(workerData.entry);
