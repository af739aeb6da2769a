// Every CLI command, in the order `--help` lists them.
import type { CliCommand } from './command';
import { statusCommand } from './status';

export const commands: CliCommand[] = [statusCommand];
