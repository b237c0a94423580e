let n = 0;

/** An id no other row of this test run has: `prefix`, the time, and a counter. */
export const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;
