import type { Project, ProjectCreate } from '@tc/contract/projects';
import { useRef } from 'react';
import { createEntity, updateEntity, useInvalidateEntity } from '../../../lib/entity-api';
import { saveLogo, type LogoChange } from '../../../lib/logo-upload';

/** The project was saved but its logo was not; `failure` is the upload's failure. */
export class LogoNotSaved extends Error {
  constructor(readonly failure: unknown) {
    super('The project was saved, but its logo was not.');
  }
}

/**
 * Saves a project, then its logo (the upload needs the project's id). When the logo fails the
 * project exists already: the id is kept, so the dialog's next attempt updates that project
 * instead of creating a second one (which would also meet the duplicate-number rule).
 */
export function useSaveProject(existingId?: string) {
  const invalidate = useInvalidateEntity();
  const savedId = useRef(existingId);
  return async (values: ProjectCreate, logo: LogoChange): Promise<Project> => {
    const id = savedId.current;
    const project = id
      ? await updateEntity<Project>('projects', { ...values, id })
      : await createEntity<Project>('projects', values);
    savedId.current = project.id;
    try {
      return await saveLogo('projects', project, logo);
    } catch (error) {
      throw new LogoNotSaved(error);
    } finally {
      // The row changed either way; the list shows it at once.
      void invalidate('projects');
    }
  };
}
