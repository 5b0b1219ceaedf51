import { z } from 'zod';
import { singleLineText } from './text';

/**
 * The request headers the server reads. A header carries Latin-1, so a tab or a C1 control
 * (0x80–0x9F) can arrive in one; neither has a place in these values.
 */
export const tenantIdHeaderSchema = singleLineText().max(100).optional();
export const acceptLanguageHeaderSchema = singleLineText().max(1000).optional();

/** The public account routes: which tenant (else the host decides), and the mail's language. */
export const accountHeadersSchema = z.object({
  'tenant-id': tenantIdHeaderSchema,
  'accept-language': acceptLanguageHeaderSchema,
});
