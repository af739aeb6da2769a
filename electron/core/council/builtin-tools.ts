// The built-in council prompt tools: analyses the sidecar LLM writes in a member's voice.
import type { PackTool } from '../../../shared/types/council';

/** Source id of the built-in prompt tools: members reference them as `council:<name>`. */
export const BUILTIN_SOURCE_ID = 'council';

export const BUILTIN_PROMPT_TOOLS: readonly PackTool[] = [
  {
    name: 'continuity_check',
    displayName: 'Continuity Check',
    description: 'Finds contradictions between the latest messages and established facts: names, timeline, injuries, inventory, locations, who knows what.',
    prompt: [
      'Audit the conversation for continuity.',
      '1. List the facts the story has established that matter for the next reply (people present, where they are, time of day, objects held, wounds, promises, secrets and who knows them).',
      '2. Point out every place where the latest messages contradict an earlier fact, or where the next reply is at risk of doing so. Quote the earlier detail briefly.',
      '3. Name the two or three facts the next reply most needs to respect.',
      'If you find no problems, say so in one sentence and still give step 3. Do not invent facts that are not in the conversation.',
    ].join('\n'),
  },
  {
    name: 'character_voice',
    displayName: 'Character Voice',
    description: "Checks that the character sounds like themself: vocabulary, rhythm, attitude, knowledge limits, and how they would react now.",
    prompt: [
      "Study how the character speaks and behaves in their description and earlier messages.",
      '- Describe their voice in a few concrete traits (sentence length, word choice, verbal tics, formality, humour, what they avoid saying).',
      '- Note any recent line that broke voice or used knowledge the character could not have.',
      "- Suggest how they would most plausibly react to the latest message, given their personality and current emotional state, with one or two short example phrasings in their voice.",
      'Keep suggestions faithful to the established character rather than to what would be convenient for the plot.',
    ].join('\n'),
  },
  {
    name: 'pacing_review',
    displayName: 'Pacing Review',
    description: 'Judges whether the scene is dragging, rushing or stuck, and recommends how much should happen in the next reply.',
    prompt: [
      'Assess the pacing of the current scene.',
      '- Is it moving too fast (skipping reactions and consequences), too slow (repeating beats, stalling, over-describing), or about right? Cite what tells you.',
      '- How long has the scene been on its current beat, and has the user signalled they want to move on or linger?',
      '- Recommend the scope of the next reply: how much time should pass, how many beats it should cover, and roughly how long it should be.',
      'Be specific; avoid generic advice like "add more tension".',
    ].join('\n'),
  },
  {
    name: 'next_beat_ideas',
    displayName: 'Next Beat Ideas',
    description: 'Proposes a few distinct, in-world directions the next reply could take, each grounded in what has already been set up.',
    prompt: [
      'Propose three distinct directions the next reply could take.',
      'For each: one line describing the beat, one line on which established detail, thread or character motive it builds on, and one line on what it opens up afterwards.',
      'Make them genuinely different (for example: escalate, complicate, reveal, or give a quiet character moment). Respect the user\'s agency: never decide what the user\'s character does, says or feels.',
      'End by naming the option you would pick and why, in one sentence.',
    ].join('\n'),
  },
  {
    name: 'world_consistency',
    displayName: 'World Consistency',
    description: "Checks the latest messages against the setting's rules: magic or technology limits, geography, politics, culture, and cause and effect.",
    prompt: [
      'Check the conversation against the rules of its world, as given in the world information, the scenario and earlier messages.',
      '- State the rules and constraints that apply to the current situation (what is possible, what it costs, who has power, how far things are).',
      '- Flag anything recent that breaks those rules or stretches them without explanation.',
      '- Suggest one or two setting details the next reply could use to make the world feel present and consistent.',
      'Only rely on what the conversation and world information establish; mark anything you infer as an inference.',
    ].join('\n'),
  },
  {
    name: 'thread_tracker',
    displayName: 'Open Threads',
    description: 'Lists unresolved plot threads, promises, questions and Chekhov\'s guns, and which are ripe to pick up now.',
    prompt: [
      'List the open threads in this story: unanswered questions, unkept promises, introduced objects or people that have not paid off, goals in progress.',
      'For each, say in one line how long it has been open and whether it is ripe to touch on in the next reply, should wait, or has been quietly dropped.',
      'Finish with the single thread that would most reward attention right now.',
    ].join('\n'),
  },
];
