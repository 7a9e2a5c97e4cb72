import { randomUUID } from 'node:crypto';
import { Role, type Artifact, type Message, type Part } from '@a2a-js/sdk';

/** The one artifact a task produces: the agent's answer, streamed as text chunks. */
export const ANSWER_ARTIFACT_ID = 'answer';

export function createTextPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function createAgentMessage(text: string, ids: { taskId: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    taskId: ids.taskId,
    contextId: ids.contextId,
    role: Role.ROLE_AGENT,
    parts: [createTextPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** An empty text gives an artifact without parts (the closing chunk of a streamed answer). */
export function createAnswerArtifact(text: string): Artifact {
  const parts = text ? [createTextPart(text)] : [];
  return {
    artifactId: ANSWER_ARTIFACT_ID,
    name: 'answer',
    description: "The agent's answer",
    parts,
    metadata: undefined,
    extensions: [],
  };
}

/**
 * Joins runs of consecutive text parts into one, so a stored answer streamed as hundreds of chunks
 * reads back as one part (tasks/get and blocking replies then carry the whole text in one place).
 */
export function mergeTextParts(parts: Part[]): Part[] {
  const merged: Part[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    if (part.content?.$case === 'text' && previous?.content?.$case === 'text' && !part.metadata && !previous.metadata) {
      merged[merged.length - 1] = {
        ...previous,
        content: { $case: 'text', value: previous.content.value + part.content.value },
      };
    } else {
      merged.push(part);
    }
  }
  return merged;
}
