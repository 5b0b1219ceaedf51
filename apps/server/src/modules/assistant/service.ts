import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '@tc/contract/assistant';
import type { Config } from '../../config';
import type { ServiceContext } from '../../http/crud-routes';
import { AppError } from '../../http/problem';
import type { Caller } from '../../identity/token-service';
import {
  ProviderError,
  streamCompletion,
  type ProviderMessage,
  type ProviderSettings,
} from './provider';
import { runTool, TOOL_DEFINITIONS } from './tools';

/** Rounds in which the model may call tools; the round after them must answer in words. */
export const MAX_TOOL_ROUNDS = 4;

export interface ChatContext extends ServiceContext {
  log: FastifyBaseLogger;
}

/** The provider settings, or the 503 that tells the widget the assistant is not set up. */
export function providerSettings(config: Config): ProviderSettings {
  const { baseUrl, apiKey, model } = config.assistant;
  if (!baseUrl) throw new AppError(503, 'assistant.not_configured');
  return { baseUrl, apiKey, model };
}

export const isConfigured = (config: Config) => config.assistant.baseUrl !== undefined;

/** The instructions the browser never sees and cannot replace (roles are user|assistant only). */
export function systemPrompt(caller: Caller, today = new Date()): string {
  return [
    `You are the assistant of the Tenant Console, an administration console, for the tenant "${caller.realm}".`,
    `You are talking to ${caller.firstName} ${caller.lastName} (${caller.email}), a user of this tenant.`,
    "Answer questions about this tenant's users, roles, permissions and projects only from the " +
      'results of the tools you are given; never guess or invent names or figures.',
    'The tools only read data and only see this tenant; you cannot change anything. If a tool ' +
      'reports an error, such as a missing permission, tell the user plainly.',
    "Answer in the language of the user's last message, briefly.",
    `Today is ${today.toISOString().slice(0, 10)}.`,
  ].join('\n');
}

/**
 * One answer: calls the provider, runs the tools it asks for with the caller's rights and
 * calls it again with their results, streaming text to `onDelta` as it is generated. A
 * failure of the provider is thrown as a ProviderError.
 */
export async function answerChat(
  ctx: ChatContext,
  messages: ChatMessage[],
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const settings = providerSettings(ctx.config);
  const conversation: ProviderMessage[] = [
    { role: 'system', content: systemPrompt(ctx.caller) },
    ...messages,
  ];
  for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
    const offerTools = round < MAX_TOOL_ROUNDS;
    const completion = await streamCompletion(
      settings,
      { messages: conversation, ...(offerTools ? { tools: TOOL_DEFINITIONS } : {}) },
      onDelta,
      signal,
    );
    if (completion.toolCalls.length === 0) return;
    if (!offerTools) throw new ProviderError('tool calls were made after the last tool round');
    conversation.push({
      role: 'assistant',
      content: completion.content || null,
      tool_calls: completion.toolCalls,
    });
    for (const call of completion.toolCalls) {
      const content = await runTool(ctx, call, ctx.log);
      conversation.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
}
