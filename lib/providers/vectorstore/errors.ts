/** Errors every vector store raises the same way, so callers can tell them apart by class. */

/**
 * The index was built with one embedder and is now fed vectors of another size. Names both
 * dimensions: the fix is to re-index with the new embedder or switch back to the old one.
 */
export class VectorDimensionError extends Error {
  constructor(
    /** What holds the vectors, e.g. `LanceDB table "chunks" (column vector)`. */
    readonly target: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(
      `Vector dimension mismatch: ${target} holds ${expected}-dimensional vectors but got a ${actual}-dimensional one. ` +
        `The embedder changed since the manuals were indexed: re-index them with the current embedder ` +
        `(or switch back to the embedder with ${expected} dimensions).`,
    );
    this.name = 'VectorDimensionError';
  }
}

/** Throws VectorDimensionError unless every vector has `expected` components. */
export function assertDimensions(target: string, expected: number, vectors: Iterable<ArrayLike<number>>): void {
  for (const v of vectors) {
    if (v.length !== expected) throw new VectorDimensionError(target, expected, v.length);
  }
}
