// Lumiverse's ids for what a Workbench session holds (a session is a chat with its own character and persona): the
// host answers spindle calls with them and the window tells frames them (ctx.state), so both name a thing alike.

/** The one local user of the Workbench, as Lumiverse's `userId` arguments name it. */
export const LOCAL_USER_ID = 'local';

/** A character's picture as Lumiverse's image_id: an extension's frames fetch it at /api/v1/images/<image_id>. */
export const characterImageId = (sessionId: string) => `avatar-${sessionId}`;
export const CHARACTER_IMAGE_ID = /^avatar-([A-Za-z0-9_-]{1,128})$/;

/** A session's persona, as Lumiverse's persona id (a session holds its own). */
export const personaIdOf = (sessionId: string) => `persona-${sessionId}`;
