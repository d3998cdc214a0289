/** Where @nestjs/swagger keeps a property's @ApiProperty options (its API_MODEL_PROPERTIES, not exported). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** The schema extension a response-optional property carries until the document is finished. */
export const RESPONSE_OPTIONAL = 'x-response-optional';

/**
 * A response field some answers leave out (readiness's checks, a hook's cause fields), declared on
 * the DTO property above its @ApiProperty: every other property of a response schema is required
 * (common/openapi/finish-document.ts), and this one is not.
 */
export function ResponseOptional(): PropertyDecorator {
  return (target, key) => {
    const meta = (Reflect.getMetadata(API_MODEL_PROPERTIES, target, key) as object | undefined) ?? {};
    Reflect.defineMetadata(API_MODEL_PROPERTIES, { ...meta, [RESPONSE_OPTIONAL]: true }, target, key);
  };
}
