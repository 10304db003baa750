"""The campaign: the map, the forces and the turns that lead to battles."""
