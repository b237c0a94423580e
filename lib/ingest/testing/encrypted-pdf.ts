/**
 * Test helper: a one-page PDF protected with the Standard security handler, revision 2
 * (RC4, 40-bit key), written by hand because pdf-lib cannot encrypt and qpdf is not installed.
 * Follows ISO 32000-1 §7.6.3 (algorithms 1–4); RC4 is implemented here because OpenSSL 3 in
 * Node 20 no longer offers it.
 */
import { createCipheriv, createHash } from 'node:crypto';

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};
const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);

export interface EncryptedPdfOptions {
  userPassword: string;
  ownerPassword?: string;
  /** Text drawn on the page (ASCII). */
  text?: string;
}

export function makeEncryptedPdf(opts: EncryptedPdfOptions): Uint8Array {
  const user = opts.userPassword;
  const owner = opts.ownerPassword ?? `${user}-owner`;
  const text = opts.text ?? 'Secret service procedure';
  const id = md5(Buffer.from(`manual-copilot-test-${user}`));
  const permissions = -44; // print + copy allowed; any value works for reading
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);

  // Algorithm 3: O entry (R2: one MD5, 5-byte key).
  const ownerKey = md5(padded(owner)).subarray(0, 5);
  const O = rc4(ownerKey, padded(user));
  // Algorithm 2: file key; algorithm 4: U entry.
  const fileKey = md5(padded(user), O, p, id).subarray(0, 5);
  const U = rc4(fileKey, PAD);
  // Algorithm 1: per-object key for object `num`, generation 0.
  const objectKey = (num: number) => md5(fileKey, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = Buffer.from(`BT /F1 18 Tf 40 120 Td (${text}) Tj ET`, 'latin1');
  const encrypted = rc4(objectKey(5), content);

  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  const obj = (num: number, body: Buffer | string) => {
    offsets[num] = length;
    write(`${num} 0 obj\n`);
    write(body);
    write('\nendobj\n');
  };

  write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  obj(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 240] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>');
  obj(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  obj(5, Buffer.concat([Buffer.from(`<< /Length ${encrypted.length} >>\nstream\n`, 'latin1'), encrypted, Buffer.from('\nendstream', 'latin1')]));
  obj(6, `<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${permissions} >>`);
  const xref = length;
  write(`xref\n0 7\n0000000000 65535 f \n`);
  for (let n = 1; n <= 6; n++) write(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size 7 /Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The parts of an AES-128 (Standard security handler V4, R4, AESV2) PDF with an empty user
 * password — the kind any reader (pdf.js included) opens without asking: the file key, the
 * /Encrypt dictionary, the /ID, and `encrypt(objectNumber, data)` for stream data
 * (ISO 32000-1 §7.6.2 algorithm 1 with "sAlT", §7.6.3 algorithms 2, 3 and 5).
 */
export function emptyPasswordAes(): { encryptDict: string; id: Buffer; encrypt(num: number, data: Uint8Array): Buffer } {
  const id = md5(Buffer.from('manual-copilot-test-aes'));
  const permissions = -44;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const xorKey = (key: Uint8Array, i: number) => Buffer.from(key.map((b) => b ^ i));
  // Algorithm 3 (R4): O from the owner password.
  let ownerKey = md5(padded('owner'));
  for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
  let O = rc4(ownerKey, padded(''));
  for (let i = 1; i <= 19; i++) O = rc4(xorKey(ownerKey, i), O);
  // Algorithm 2 (R4): the 128-bit file key.
  let fileKey = md5(padded(''), O, p, id);
  for (let i = 0; i < 50; i++) fileKey = md5(fileKey);
  // Algorithm 5: U.
  let U = rc4(fileKey, md5(PAD, id));
  for (let i = 1; i <= 19; i++) U = rc4(xorKey(fileKey, i), U);
  const u32 = Buffer.concat([U, Buffer.alloc(16)]);
  const encryptDict =
    `<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> ` +
    `/StmF /StdCF /StrF /StdCF /O <${O.toString('hex')}> /U <${u32.toString('hex')}> /P ${permissions} >>`;
  const encrypt = (num: number, data: Uint8Array) => {
    const key = md5(fileKey, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]), Buffer.from('sAlT', 'latin1'));
    const iv = md5(Buffer.from(`iv-${num}`));
    const cipher = createCipheriv('aes-128-cbc', key, iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  };
  return { encryptDict, id, encrypt };
}
