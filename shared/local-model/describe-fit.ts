// A fit verdict in words, the same on the CLI and in the window.
import { fileSize as size } from '../file-size';
import type { ModelFit } from './engine-contract';

export function describeFit(fit: ModelFit): string {
  const where = fit.verdict === 'gpu' ? `fits on the GPU (${fit.gpu})` : fit.verdict === 'cpu' ? 'runs on the CPU' : 'won’t fit on this machine';
  const vram = fit.vramBytes > 0 ? ` and ${size(fit.vramBytes)} of GPU memory` : '';
  return `${fit.name || 'The model'} [${fit.architecture}], ${size(fit.sizeBytes)}: ${where} — needs ${size(fit.ramBytes)} of RAM${vram} with a ${fit.contextSize}-token context (${size(fit.freeRamBytes)} free now).`;
}
