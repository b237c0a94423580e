/**
 * Arrow schemas and record batches for the LanceDB tables, built column by column from typed
 * arrays: no per-row object conversion, and the vector columns get the exact FixedSizeList type
 * (LanceDB 0.37 does not check a vector's length on add — a wrong-sized vector goes in silently).
 */
import * as arrow from 'apache-arrow';
import type { PageRecord, Passage } from '../types';

const item = () => new arrow.Field('item', new arrow.Float32(), true);
const vectorType = (dims: number) => new arrow.FixedSizeList<arrow.Float32>(dims, item());
const bagType = (dims: number) => new arrow.List<arrow.FixedSizeList<arrow.Float32>>(new arrow.Field('item', vectorType(dims), true));

export const CHUNK_VECTOR_COLUMN = 'vector';
export const PAGE_BAG_COLUMN = 'multivector';
export const PAGE_CENTROID_COLUMN = 'centroid';

export function chunksSchema(dims: number): arrow.Schema {
  return new arrow.Schema([
    new arrow.Field('id', new arrow.Utf8(), false),
    new arrow.Field('manual_id', new arrow.Utf8(), false),
    new arrow.Field('page', new arrow.Int32(), false),
    new arrow.Field('heading', new arrow.Utf8(), false),
    new arrow.Field('text', new arrow.Utf8(), false),
    new arrow.Field('ocr', new arrow.Bool(), false),
    // Highlight rectangles as JSON: only ever read back whole, never filtered on.
    new arrow.Field('bboxes', new arrow.Utf8(), false),
    new arrow.Field(CHUNK_VECTOR_COLUMN, vectorType(dims), false),
  ]);
}

export function pagesSchema(dims: number): arrow.Schema {
  return new arrow.Schema([
    new arrow.Field('manual_id', new arrow.Utf8(), false),
    new arrow.Field('page', new arrow.Int32(), false),
    new arrow.Field('text', new arrow.Utf8(), false),
    new arrow.Field('n_vectors', new arrow.Int32(), false),
    // Mean of the page's (normalised) bag: the cheap first stage of MaxSim search.
    new arrow.Field(PAGE_CENTROID_COLUMN, vectorType(dims), false),
    new arrow.Field(PAGE_BAG_COLUMN, bagType(dims), false),
  ]);
}

/** The length of a FixedSizeList column (directly or inside a List), or undefined. */
export function vectorDimsOf(schema: arrow.Schema, column: string): number | undefined {
  const field = schema.fields.find((f) => f.name === column);
  if (!field) return undefined;
  let type: arrow.DataType = field.type;
  if (arrow.DataType.isList(type)) type = (type as arrow.List).children[0].type;
  return arrow.DataType.isFixedSizeList(type) ? (type as arrow.FixedSizeList).listSize : undefined;
}

const encoder = new TextEncoder();

/** Arrow value offsets of items of these lengths: item i spans offsets[i] up to offsets[i + 1]. */
function offsetsOf(lengths: number[]): Int32Array {
  const offsets = new Int32Array(lengths.length + 1);
  lengths.forEach((n, i) => {
    offsets[i + 1] = offsets[i] + n;
  });
  return offsets;
}

function utf8(values: string[]): arrow.Data {
  const parts = values.map((v) => encoder.encode(v));
  const offsets = offsetsOf(parts.map((p) => p.length));
  const bytes = new Uint8Array(offsets[values.length]);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return arrow.makeData({ type: new arrow.Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data: bytes });
}

function int32(values: number[]): arrow.Data {
  return arrow.makeData({ type: new arrow.Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) });
}

function bool(values: boolean[]): arrow.Data {
  const bits = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v) bits[i >> 3] |= 1 << (i & 7);
  });
  return arrow.makeData({ type: new arrow.Bool(), length: values.length, nullCount: 0, data: bits });
}

function vectors(dims: number, rows: ArrayLike<number>[]): arrow.Data<arrow.FixedSizeList<arrow.Float32>> {
  const flat = new Float32Array(rows.length * dims);
  rows.forEach((v, i) => flat.set(v, i * dims));
  const child = arrow.makeData({ type: new arrow.Float32(), length: flat.length, nullCount: 0, data: flat });
  return arrow.makeData({ type: vectorType(dims), length: rows.length, nullCount: 0, child });
}

function bags(dims: number, rows: ArrayLike<number>[][]): arrow.Data {
  const offsets = offsetsOf(rows.map((bag) => bag.length));
  const child = vectors(dims, rows.flat());
  return arrow.makeData({ type: bagType(dims), length: rows.length, nullCount: 0, valueOffsets: offsets, child });
}

function table(schema: arrow.Schema, children: arrow.Data[]): arrow.Table {
  const length = children[0]?.length ?? 0;
  const struct = arrow.makeData({ type: new arrow.Struct(schema.fields), length, nullCount: 0, children });
  return new arrow.Table(schema, [new arrow.RecordBatch(schema, struct)]);
}

/** A passage as the chunks table stores it: its boxes as JSON, its vector. */
export interface ChunkRow extends Omit<Passage, 'bboxes'> {
  bboxesJson: string;
  vector: ArrayLike<number>;
}

export function chunkBatch(dims: number, rows: ChunkRow[]): arrow.Table {
  return table(chunksSchema(dims), [
    utf8(rows.map((r) => r.id)),
    utf8(rows.map((r) => r.manualId)),
    int32(rows.map((r) => r.page)),
    utf8(rows.map((r) => r.heading)),
    utf8(rows.map((r) => r.text)),
    bool(rows.map((r) => r.ocr)),
    utf8(rows.map((r) => r.bboxesJson)),
    vectors(
      dims,
      rows.map((r) => r.vector),
    ),
  ]);
}

/** A page as the pages table stores it: its bag of vectors and their mean. */
export interface PageRow extends Pick<PageRecord, 'manualId' | 'page' | 'text'> {
  centroid: ArrayLike<number>;
  bag: ArrayLike<number>[];
}

export function pageBatch(dims: number, rows: PageRow[]): arrow.Table {
  return table(pagesSchema(dims), [
    utf8(rows.map((r) => r.manualId)),
    int32(rows.map((r) => r.page)),
    utf8(rows.map((r) => r.text)),
    int32(rows.map((r) => r.bag.length)),
    vectors(
      dims,
      rows.map((r) => r.centroid),
    ),
    bags(
      dims,
      rows.map((r) => r.bag),
    ),
  ]);
}
