// Every CLI command, in the order `--help` lists them.
import type { CliCommand } from './command';
import { statusCommand } from './status';
import { extensionCommands } from './extensions';
import { extensionTestCommand } from './extension-test';
import { toolCommands } from './tools';
import { connectionCommands } from './connections';
import { modelCommands } from './models';
import { sidecarCommands } from './sidecar';
import { chatCommand } from './chat';
import { packCommands } from './packs';
import { sessionCommands } from './sessions';
import { councilCommands } from './council';
import { mcpCommands } from './mcp';
import { backupCommands } from './backup';

export const commands: CliCommand[] = [statusCommand, ...extensionCommands, extensionTestCommand, ...toolCommands, ...connectionCommands, ...modelCommands, ...sidecarCommands, chatCommand(), ...packCommands, ...sessionCommands, ...councilCommands, ...mcpCommands, ...backupCommands];
