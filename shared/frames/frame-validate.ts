// Checks what crosses the frame boundary against shared/frames/frame-contract.ts, on either side.
import type { TSchema } from '@sinclair/typebox';
import { firstProblem } from '../schema-problem';
import { FRAME_METHODS, FRAME_TOPICS, type FrameError } from './frame-contract';

export function requestProblem(method: string, params: unknown): FrameError | null {
  // Own names only: "constructor" or "toString" are not methods of the contract.
  const spec = Object.hasOwn(FRAME_METHODS, method) ? (FRAME_METHODS as Record<string, { params: TSchema }>)[method] : undefined;
  if (!spec) return { code: 'UNKNOWN_METHOD', message: `No frame method ${JSON.stringify(method.slice(0, 80))}.` };
  return firstProblem(spec.params, params, method);
}

/** A response's value against its method's result schema. */
export function resultProblem(method: string, value: unknown): FrameError | null {
  const spec = Object.hasOwn(FRAME_METHODS, method) ? (FRAME_METHODS as Record<string, { result: TSchema }>)[method] : undefined;
  if (!spec) return { code: 'UNKNOWN_METHOD', message: `No frame method ${JSON.stringify(method.slice(0, 80))}.` };
  return firstProblem(spec.result, value, `${method} result`);
}

export function noticeProblem(topic: string, data: unknown): FrameError | null {
  const schema = Object.hasOwn(FRAME_TOPICS, topic) ? (FRAME_TOPICS as Record<string, TSchema>)[topic] : undefined;
  if (!schema) return { code: 'UNKNOWN_METHOD', message: `No frame topic ${JSON.stringify(topic.slice(0, 80))}.` };
  return firstProblem(schema, data, topic);
}
