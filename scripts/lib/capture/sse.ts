/**
 * Minimal valid streaming replies of the two model APIs, so that a CLI talking to
 * the recording stub finishes its turn. Pure functions: text in, text out.
 */

/** One Server-Sent Events frame: `event:` line, one `data:` line of JSON, blank line. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const STUB_REPLY_TEXT = 'ok';

/** Anthropic Messages API: the events of one assistant message holding one text block. */
export function anthropicMessageEvents(model: string, text = STUB_REPLY_TEXT): [string, unknown][] {
  return [
    ['message_start', {
      type: 'message_start',
      message: {
        id: 'msg_stub', type: 'message', role: 'assistant', model, content: [],
        stop_reason: null, stop_sequence: null,
        usage: { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
}

export function anthropicMessageSse(model: string, text = STUB_REPLY_TEXT): string {
  return anthropicMessageEvents(model, text).map(([e, d]) => sseFrame(e, d)).join('');
}

/** The same message as a non-streaming JSON body. */
export function anthropicMessageJson(model: string, text = STUB_REPLY_TEXT): unknown {
  return {
    id: 'msg_stub', type: 'message', role: 'assistant', model,
    content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
    usage: { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
  };
}

/** OpenAI Responses API: the events of one response holding one assistant message. */
export function openaiResponseEvents(model: string, text = STUB_REPLY_TEXT): [string, unknown][] {
  const message = {
    type: 'message', id: 'msg_stub', status: 'completed', role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const base = { id: 'resp_stub', object: 'response', created_at: 0, model };
  const usage = {
    input_tokens: 1, input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2,
  };
  return [
    ['response.created', { type: 'response.created', sequence_number: 0, response: { ...base, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...message, status: 'in_progress', content: [] } }],
    ['response.content_part.added', { type: 'response.content_part.added', sequence_number: 2, item_id: 'msg_stub', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }],
    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_stub', output_index: 0, content_index: 0, delta: text }],
    ['response.output_text.done', { type: 'response.output_text.done', sequence_number: 4, item_id: 'msg_stub', output_index: 0, content_index: 0, text }],
    ['response.content_part.done', { type: 'response.content_part.done', sequence_number: 5, item_id: 'msg_stub', output_index: 0, content_index: 0, part: { type: 'output_text', text, annotations: [] } }],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item: message }],
    ['response.completed', { type: 'response.completed', sequence_number: 7, response: { ...base, status: 'completed', output: [message], usage } }],
  ];
}

export function openaiResponseSse(model: string, text = STUB_REPLY_TEXT): string {
  return openaiResponseEvents(model, text).map(([e, d]) => sseFrame(e, d)).join('');
}

/**
 * Splits SSE text back into frames (used by tests, and a check that the framing is
 * what a client parser expects): frames end with a blank line; `data:` lines join.
 */
export function parseSse(text: string): { event: string; data: string }[] {
  const frames: { event: string; data: string }[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    frames.push({ event, data: data.join('\n') });
  }
  return frames;
}
