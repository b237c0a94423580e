import { handlers } from '@/lib/auth/auth';
import { throttleCredentialsCallback } from '@/lib/security/sign-in-throttle';

export const GET = handlers.GET;
// Password guessing is throttled here, per account and per address (docs/security.md).
export const POST = throttleCredentialsCallback(handlers.POST);
