export function contentSecurityPolicy(options?: { nonce?: string; dev?: boolean }): string;
export function securityHeaders(options?: { dev?: boolean }): Array<{ key: string; value: string }>;
