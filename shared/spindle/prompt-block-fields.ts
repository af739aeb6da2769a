// A Loom prompt block's roles and places, as Lumiverse's PromptBlockDTO has them, with the words the Workbench's
// editors show for them (the preset editor's form and the Loom block editor in extensions' frames).

export const BLOCK_ROLES = ['system', 'user', 'assistant', 'user_append', 'assistant_append'] as const;
export const BLOCK_POSITIONS = ['pre_history', 'post_history', 'in_history'] as const;

export const ROLE_LABELS: Record<(typeof BLOCK_ROLES)[number], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  user_append: 'Added to the last user message',
  assistant_append: 'Added to the last reply',
};

export const POSITION_LABELS: Record<(typeof BLOCK_POSITIONS)[number], string> = {
  pre_history: 'Before the chat history',
  post_history: 'After the chat history',
  in_history: 'Inside the chat history, at a depth',
};
