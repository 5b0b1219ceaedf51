import Box from '@mui/material/Box';
import { gridClasses, GridLoadingOverlay, type GridLoadingOverlayProps } from '@mui/x-data-grid';

/**
 * The grid's own loading bar, hidden from assistive technology. The grid's element has the
 * role grid, whose children may only be rows and row groups: a progress bar inside it (with
 * no name either) made the whole grid invalid to a screen reader each time a page, a sort or
 * a live update was being fetched. That state is told by `aria-busy` on what holds the grid
 * instead (the grid passes no such property on to its elements).
 */
export function GridBusyOverlay(props: GridLoadingOverlayProps) {
  return (
    <Box aria-hidden sx={{ display: 'contents' }}>
      <GridLoadingOverlay {...props} />
    </Box>
  );
}

/**
 * The grid's overlays only inform. The loading one covers every row while a page, a sort or
 * another administrator's change is fetched, and took the clicks meant for the rows (a row's
 * menu did not open): with this on the grid's `sx`, clicks go through to them.
 */
export const overlaysLetClicksThrough = {
  [`& .${gridClasses.overlayWrapper}`]: { pointerEvents: 'none' },
} as const;
