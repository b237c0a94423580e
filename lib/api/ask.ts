/**
 * POST /api/v1/ask: a question in, the agent's cited answer out, as JSON. Authenticated with an
 * API key, rate-limited and capped in flight per key and owner, and audited like the MCP tools;
 * the body is read only after all of that, capped at 64 KB (413).
 */
import { z } from 'zod';
import { askAgent, LibraryApiError, type LibraryDeps } from '@/lib/api/operations';
import { GuardError, readJsonCapped } from '@/lib/security/request-guard';
import { audited, authenticateRequest, withInFlightSlot, type ApiCaller } from './keys';

const askBodySchema = z.object({
  question: z.string().trim().min(1, 'question must not be empty').max(4000, 'question is longer than 4000 characters'),
  manuals: z.array(z.string().min(1).max(200)).max(50).optional(),
  /** The device the question is about (a manual id or exact title): the answer to a `clarify` reply. */
  device: z.string().min(1).max(200).optional(),
});

export async function handleAsk(request: Request, baseUrl: string, deps?: LibraryDeps): Promise<Response> {
  const caller = await authenticateRequest(request);
  if (caller instanceof Response) return caller;
  return withInFlightSlot(caller, async () => {
    let body: unknown;
    try {
      body = await readJsonCapped(request);
    } catch (err) {
      if (err instanceof GuardError) return err.toResponse();
      throw err;
    }
    const parsed = askBodySchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
      return Response.json(
        { error: `Bad request: ${body === null ? 'the body must be JSON like {"question": "…"}' : problems.join('; ')}`, code: 'bad_request' },
        { status: 400 },
      );
    }
    return answerWith(caller, parsed.data, request, baseUrl, deps);
  });
}

async function answerWith(caller: ApiCaller, input: z.output<typeof askBodySchema>, request: Request, baseUrl: string, deps?: LibraryDeps): Promise<Response> {
  try {
    const answer = await audited(
      caller,
      'v1:ask',
      () => askAgent(input, baseUrl, deps, request.signal),
      (a) => (a.status === 'done' ? undefined : a.status),
    );
    return Response.json(answer);
  } catch (err) {
    if (err instanceof LibraryApiError) return Response.json({ error: err.message, code: 'bad_request' }, { status: 400 });
    console.error('[api] ask failed', err);
    return Response.json({ error: 'Something went wrong on the server. Please try again.', code: 'internal' }, { status: 500 });
  }
}
