import type { Project, ProjectCreate } from '@tc/contract/projects';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { ApiError } from '../../../lib/api-client';
import { deleteEntity, useEntityMutation } from '../../../lib/entity-api';
import { LogoUpload } from '../../../components/logo-upload';
import type { LogoChange } from '../../../lib/logo-upload';
import { LogoNotSaved, useSaveProject } from '../api/save-project';
import { projectDefaults, projectFormSchema, type ProjectForm } from '../form-state';
import { ProjectFields } from './project-fields';
import { describeFailure } from '../../../lib/problem-text';

/**
 * Add, edit, view or delete a project: the whole form, with the logo
 * uploaded once the project is saved. The spec gives no width; the form needs 800.
 */
export function ProjectDialog(props: { mode: DialogMode; row?: Project; onClose: () => void }) {
  const { t, i18n } = useTranslation(['projects', 'lists']);
  const { mode, row } = props;
  const language = i18n.resolvedLanguage ?? 'en';
  const [logo, setLogo] = useState<LogoChange>({ kind: 'keep' });
  const save = useSaveProject(row?.id);
  const remove = useEntityMutation('projects', (id: string) => deleteEntity('projects', id));
  const schema = useMemo(
    () => projectFormSchema(mode === 'add' ? 'add' : 'edit', language),
    [mode, language],
  );

  /** A logo refused after the save: say that the project itself was saved, and why not the logo. */
  const explain = (error: LogoNotSaved) => {
    const failure = error.failure;
    const reason =
      failure instanceof ApiError ? describeFailure(t, failure) : t('lists:networkError');
    return new ApiError(
      failure instanceof ApiError ? failure.status : 0,
      t('logoNotSaved', { reason }),
    );
  };

  const confirm = async (values: ProjectCreate) => {
    if (mode === 'delete') return remove.mutateAsync(row!.id);
    try {
      return await save(values, logo);
    } catch (error) {
      throw error instanceof LogoNotSaved ? explain(error) : error;
    }
  };

  return (
    <CrudDialog<ProjectForm, ProjectCreate>
      mode={mode}
      onClose={props.onClose}
      {...dialogLabels(t, mode)}
      width={800}
      schema={schema}
      defaultValues={projectDefaults(row)}
      onConfirm={confirm}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={t('deleteQuestion', { name: row?.name ?? '' })}
    >
      {({ control }, disabled) => (
        <>
          <LogoUpload
            currentUrl={row?.logoUrl ?? null}
            value={logo}
            onChange={setLogo}
            disabled={disabled}
          />
          <ProjectFields
            control={control}
            row={row}
            disabled={disabled}
            autoFocus={mode === 'add'}
          />
        </>
      )}
    </CrudDialog>
  );
}
