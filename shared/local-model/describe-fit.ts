// A fit verdict in words, the same on the CLI and in the window.
import type { ModelFit } from './engine-contract';

const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(bytes < 10 * 1024 ** 2 ? 1 : 0)} MB`);

export function describeFit(fit: ModelFit): string {
  const where = fit.verdict === 'gpu' ? `fits on the GPU (${fit.gpu})` : fit.verdict === 'cpu' ? 'runs on the CPU' : 'won’t fit on this machine';
  const vram = fit.vramBytes > 0 ? ` and ${size(fit.vramBytes)} of GPU memory` : '';
  return `${fit.name || 'The model'} [${fit.architecture}], ${size(fit.sizeBytes)}: ${where} — needs ${size(fit.ramBytes)} of RAM${vram} with a ${fit.contextSize}-token context (${size(fit.freeRamBytes)} free now).`;
}
