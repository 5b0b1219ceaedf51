/** SCIM's own error answers (RFC 7644 §3.12), not the console API's problem details. */

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(detail);
  }

  get body() {
    return {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

export const badRequest = (scimType: ScimType, detail: string) =>
  new ScimError(400, scimType, detail);
export const notFound = (detail = 'Resource not found') => new ScimError(404, undefined, detail);
export const unauthorized = () =>
  new ScimError(401, undefined, 'A valid bearer token of an application of this tenant is needed');
export const forbidden = (detail: string) => new ScimError(403, undefined, detail);
export const uniqueness = (detail: string) => new ScimError(409, 'uniqueness', detail);
export const preconditionFailed = () =>
  new ScimError(412, undefined, 'Precondition Failed: the resource has changed (If-Match)');
