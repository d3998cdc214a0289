import { DomainException } from '../common/errors/domain.exception';
import { ErrorCode } from '../common/errors/error-codes';

/** RFC 7644 §3.12's scimType values the service answers with. */
export type ScimType =
  'invalidFilter' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidSyntax' | 'uniqueness' | 'mutability' | 'tooMany';

const CODE: Record<ScimType, ErrorCode> = {
  invalidFilter: 'BAD_REQUEST',
  invalidPath: 'BAD_REQUEST',
  noTarget: 'BAD_REQUEST',
  invalidValue: 'BAD_REQUEST',
  invalidSyntax: 'BAD_REQUEST',
  tooMany: 'BAD_REQUEST',
  uniqueness: 'CONFLICT',
  mutability: 'BAD_REQUEST',
};

/** A SCIM refusal: answered on /scim/v2 as an RFC 7644 error body with its scimType. */
export class ScimError extends DomainException {
  constructor(
    public readonly scimType: ScimType,
    detail: string,
  ) {
    super(CODE[scimType], detail);
  }
}
