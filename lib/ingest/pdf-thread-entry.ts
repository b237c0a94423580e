/**
 * The thread side of pdf-thread.ts: one PDF at a time opened with pdf.js, its calls run one at a
 * time as they arrive; `close` frees it for the next. Everything pdf.js does for an ingest happens
 * here, so a page that never finishes stalls only this thread, which the ingest stops.
 */
import { parentPort } from 'node:worker_threads';
import { runGuarded } from './decode-guard';
import { isIngestError } from './errors';
import { openPdf, type PdfDoc } from './pdf';
import type { ThreadCall, ThreadReply } from './pdf-thread';

const port = parentPort!;
let doc: PdfDoc | undefined;

async function run(call: ThreadCall): Promise<unknown> {
  if (call.method === 'open' || call.method === 'close') {
    await doc?.close();
    doc = undefined;
  }
  if (call.method === 'close') return null;
  if (call.method === 'open') {
    const [bytes, password] = call.args as [Uint8Array, string | undefined];
    doc = await openPdf(bytes, { password, maxBytes: Infinity, checkPageTree: false });
    return { numPages: doc.numPages, fingerprint: doc.fingerprint, info: doc.info };
  }
  const method = doc![call.method] as (...args: unknown[]) => Promise<unknown>;
  return method.apply(doc, call.args);
}

/** The buffers of an image result, moved to the other thread instead of copied when they own their memory. */
function transferable(result: unknown): ArrayBuffer[] {
  const r = result as { data?: unknown; png?: unknown } | null;
  const buf = r?.data ?? r?.png;
  return buf instanceof Uint8Array && buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength && buf.buffer instanceof ArrayBuffer ? [buf.buffer] : [];
}

port.on('message', async (call: ThreadCall) => {
  let reply: ThreadReply;
  try {
    // A stream decoded past its cap fails the call that decoded it (decode-guard.ts).
    reply = { id: call.id, ok: true, result: await runGuarded(() => run(call)) };
  } catch (err) {
    const e = err as Error;
    reply = {
      id: call.id,
      ok: false,
      error: isIngestError(err) ? { ingest: err.toJSON() } : { message: e?.message ?? String(err), name: e?.name ?? 'Error' },
    };
  }
  port.postMessage(reply, reply.ok ? transferable(reply.result) : []);
});
