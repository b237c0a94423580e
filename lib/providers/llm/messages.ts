/**
 * Prompt helpers for the VLM role: a rendered manual page goes to the model as a file part with
 * mediaType image/png (Gemini: inlineData; OpenAI-compatible: image_url with a data: URL).
 */
import type { FilePart, ModelMessage } from 'ai';

function pageImagePart(image: Uint8Array, mediaType = 'image/png'): FilePart {
  return { type: 'file', data: image, mediaType };
}

/** One user message: the question (or instruction) followed by the page images in order. */
export function visionPrompt(text: string, images: Uint8Array[], mediaType = 'image/png'): ModelMessage[] {
  return [{ role: 'user', content: [{ type: 'text', text }, ...images.map((img) => pageImagePart(img, mediaType))] }];
}
