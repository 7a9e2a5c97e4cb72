import type { Message } from '@a2a-js/sdk';

/**
 * What the agent reads from an A2A message: text parts as they are, data parts as JSON, file
 * references as a line naming the URL. Inline file bytes are not readable by a text model and are left out.
 */
export function extractMessageText(message: Message): string {
  const pieces: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (!content) continue;
    switch (content.$case) {
      case 'text':
        pieces.push(content.value);
        break;
      case 'data':
        pieces.push(JSON.stringify(content.value));
        break;
      case 'url':
        pieces.push(
          `[file${part.filename ? ` ${part.filename}` : ''}${part.mediaType ? ` (${part.mediaType})` : ''}: ${content.value}]`,
        );
        break;
      case 'raw':
        break;
    }
  }
  return pieces.join('\n').trim();
}
