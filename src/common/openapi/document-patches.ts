import { Global, Injectable, Module } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { AuthUser } from '../auth/auth-user';

/**
 * A change of the OpenAPI document for one request, by its reader (null: anonymous): the custom
 * fields a user sees, typed. It returns a new document and leaves the one it got as it was (the
 * built document is shared by every request): copy what it changes, down to what it changes.
 */
export type DocumentPatch = (document: OpenAPIObject, reader: AuthUser | null) => Promise<OpenAPIObject>;

/** The patches modules register (onModuleInit) for GET /openapi.json, /openapi.yaml and /docs. */
@Injectable()
export class DocumentPatches {
  private readonly patches: DocumentPatch[] = [];

  register(patch: DocumentPatch): void {
    this.patches.push(patch);
  }

  async apply(document: OpenAPIObject, reader: AuthUser | null): Promise<OpenAPIObject> {
    let out = document;
    for (const patch of this.patches) out = await patch(out, reader);
    return out;
  }
}

@Global()
@Module({ providers: [DocumentPatches], exports: [DocumentPatches] })
export class DocumentPatchesModule {}
