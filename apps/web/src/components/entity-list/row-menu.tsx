import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogMode } from './crud-dialog';

/** A screen's own action on a row, shown between Edit and Delete. */
export interface RowAction {
  label: string;
  onSelect: () => void;
}

export interface RowMenuProps {
  /** Names the row for screen readers: "Actions for {{name}}". */
  name: string;
  canEdit: boolean;
  canDelete: boolean;
  onChoose: (mode: Exclude<DialogMode, 'add'>) => void;
  actions?: readonly RowAction[];
}

/**
 * The per-row menu of the list screens: View, Edit, a screen's own actions, Delete (delete in
 * red: it cannot be undone).
 */
export function RowMenu({ name, canEdit, canDelete, onChoose, actions = [] }: RowMenuProps) {
  const { t } = useTranslation('lists');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const choose = (mode: Exclude<DialogMode, 'add'>) => {
    setAnchor(null);
    onChoose(mode);
  };
  return (
    <>
      <IconButton
        size="small"
        aria-label={t('actionsFor', { name })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        // The grid moves focus between cells with the arrow keys; Enter or Space opens the menu.
        onKeyDown={(event) => event.key === ' ' && event.stopPropagation()}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('view')}>
          <ListItemText>{t('view')}</ListItemText>
        </MenuItem>
        {canEdit ? (
          <MenuItem onClick={() => choose('edit')}>
            <ListItemText>{t('edit')}</ListItemText>
          </MenuItem>
        ) : null}
        {actions.map((action) => (
          <MenuItem
            key={action.label}
            onClick={() => {
              setAnchor(null);
              action.onSelect();
            }}
          >
            <ListItemText>{action.label}</ListItemText>
          </MenuItem>
        ))}
        {canDelete ? (
          <MenuItem onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
            <ListItemText>{t('delete')}</ListItemText>
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
