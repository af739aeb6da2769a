// Every CLI command, in the order `--help` lists them.
import type { CliCommand } from './command';
import { statusCommand } from './status';
import { extensionCommands } from './extensions';
import { toolCommands } from './tools';

export const commands: CliCommand[] = [statusCommand, ...extensionCommands, ...toolCommands];
