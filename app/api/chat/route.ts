/**
 * POST /api/chat — asks a question in a session and streams the turn as an AI SDK UI message stream
 * (lib/chat/protocol): the browser reads it with `useChat`, any other client with `readUIMessageStream`.
 * A route handler rather than a streaming server action: the browser can abort the fetch (Stop,
 * navigation, closing the tab) and Next aborts `request.signal`, which reaches the agent loop;
 * server actions are dispatched one at a time per client, so a long streaming action would also
 * hold back the cancel and feedback actions.
 */
import { createUIMessageStreamResponse } from 'ai';
import { z } from 'zod';
import { type Actor, requireActor } from '@/lib/auth/access';
import { errorResponse } from '@/lib/server/http';
import { guardWrite, readJsonCapped } from '@/lib/security/request-guard';
import { ChatError, errorJson } from '@/lib/chat/errors';
import { ID_PATTERN } from '@/lib/chat/protocol';
import { prepareTurn, streamTurn } from '@/lib/chat/turn';
import { rateLimit, tooManyRequests } from '@/lib/security/rate-limit';

export const dynamic = 'force-dynamic';

const MAX_QUESTION_CHARS = 4000;
const MAX_CHAT_BODY_BYTES = 1024 * 1024;

const askSchema = z
  .object({
    sessionId: z.string().regex(ID_PATTERN),
    question: z.string().trim().min(1).max(MAX_QUESTION_CHARS).optional(),
    retryOf: z.string().regex(ID_PATTERN).optional(),
    /** The device picked from a "Which device?" reply (a manual id): the chat's device from this question on. */
    device: z.string().regex(ID_PATTERN).optional(),
    scope: z.union([z.literal('all'), z.array(z.string().regex(ID_PATTERN)).min(1).max(200)]).default('all'),
    debugDelayMs: z.number().int().min(0).max(5000).optional(),
  })
  .refine((b) => b.question || b.retryOf, { message: 'a question or retryOf is required' });

export async function POST(request: Request) {
  // Guards, all before a byte of the body is read: same origin (403), per-address limit (429), an
  // existing cookie or sign-in (401: a cookieless question leaves no rows); then a body of at most
  // 1 MB (413; below it a pasted wall of text still gets the "too long" message).
  let body: unknown;
  let actor: Actor;
  try {
    await guardWrite(request, 'ask');
    actor = await requireActor();
    body = await readJsonCapped(request, MAX_CHAT_BODY_BYTES);
  } catch (err) {
    return errorResponse(err);
  }
  const parsed = askSchema.safeParse(body);
  if (!parsed.success) {
    // The composer has no length cap: say why a pasted wall of text is refused.
    const q = (body as { question?: unknown } | null)?.question;
    const chars = typeof q === 'string' ? q.trim().length : 0;
    return errorJson(
      new ChatError(
        'bad_request:chat',
        chars > MAX_QUESTION_CHARS ? `The question is too long (${chars} characters; the limit is ${MAX_QUESTION_CHARS}). Please shorten it.` : undefined,
      ),
    );
  }
  try {
    const ownerId = actor.id;
    const allowed = await rateLimit('ask', ownerId);
    if (!allowed.ok) return tooManyRequests('questions', allowed.retryAfterS);
    const turn = await prepareTurn({ ownerId, ...parsed.data });
    // Reverse proxies (nginx) must not buffer the stream.
    return createUIMessageStreamResponse({ stream: streamTurn(turn, request.signal), headers: { 'x-accel-buffering': 'no' } });
  } catch (err) {
    return errorJson(err);
  }
}
